-- KEYS: the lease; ARGV: token, hold in ms. 1 when it is the caller's (again: a lease that
-- expired while nobody took it, e.g. while Redis was away, is the caller's once more).
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
