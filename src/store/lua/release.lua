if redis.call('GET', KEYS[2]) ~= ARGV[2] then return -1 end
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('DEL', KEYS[2])
return 1