local cur = redis.call('HMGET', KEYS[1], 'v', 'c', 'd')
if (cur[1] or '0') ~= ARGV[1] or (cur[1] and cur[2] ~= ARGV[3]) then
  return {0, cur[1], cur[2], cur[3]}
end
if ARGV[7] ~= '' then
  local holder = redis.call('GET', KEYS[3])
  if not holder then
    redis.call('SET', KEYS[3], ARGV[7], 'PX', ARGV[13])
  elseif holder ~= ARGV[7] then
    return {-1}
  end
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'c', ARGV[3], 'd', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
if ARGV[6] ~= '' then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[2], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[6])
end
if ARGV[8] ~= '' then
  if ARGV[9] ~= '' then
    redis.call('ZADD', KEYS[4], ARGV[9], ARGV[8])
  else
    redis.call('ZREM', KEYS[4], ARGV[8])
  end
end
if ARGV[10] ~= '' then
  redis.call('HSET', KEYS[5], ARGV[10], ARGV[11])
  redis.call('EXPIRE', KEYS[5], ARGV[12])
end
return {1}