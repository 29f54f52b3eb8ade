-- KEYS: the lease, the game; ARGV: token, hold in ms, the holder expected to be taken over
-- from ('' for none). {1, v, c, d} with the game as it is when taken, else {0, holder}.
local function taken()
  local g = redis.call('HMGET', KEYS[2], 'v', 'c', 'd')
  return {1, g[1], g[2], g[3]}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return taken() end
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] or (ARGV[3] ~= '' and cur == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return taken()
end
return {0, cur}
