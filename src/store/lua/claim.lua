local v = redis.call('HGET', KEYS[1], ARGV[1])
if v == 'done' then return 0 end
if v then
  local owner, at = v, 0
  local tab = string.find(v, '\t', 1, true)
  if tab then
    owner = string.sub(v, 1, tab - 1)
    at = tonumber(string.sub(v, tab + 1)) or 0
  end
  if owner ~= ARGV[2] and tonumber(ARGV[4]) - at < tonumber(ARGV[5]) then return 2 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '\t' .. ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1