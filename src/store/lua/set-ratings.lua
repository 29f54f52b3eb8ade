for i = 2, #ARGV, 3 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i])
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -tonumber(ARGV[1]) - 1)
return 1