local function taken()
  local g = redis.call('HMGET', KEYS[2], 'v', 'c', 'd')
  return {1, g[1], g[2], g[3]}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return taken() end
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return taken()
end
local mine = ARGV[3]
local boot = string.match(ARGV[1], '^(.*/)')
if cur and string.sub(cur, 1, #mine) == mine and string.sub(cur, 1, #boot) ~= boot then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return taken()
end
return {0}