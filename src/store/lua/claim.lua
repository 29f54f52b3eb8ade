-- KEYS: the update's bucket; ARGV: its field, the claimant, the expiry in seconds, now and
-- the staleness in ms, the claim expected to be taken over ('' for none).
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v == 'done' then return {0} end
if v and v ~= ARGV[6] then
  local owner, at = v, 0
  local tab = string.find(v, '\t', 1, true)
  if tab then
    owner = string.sub(v, 1, tab - 1)
    at = tonumber(string.sub(v, tab + 1)) or 0
  end
  if owner == ARGV[2] then return {3} end
  if tonumber(ARGV[4]) - at < tonumber(ARGV[5]) then return {2, v} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '\t' .. ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1}
