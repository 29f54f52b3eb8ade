-- A GCRA bucket of sends and edits on the server's clock (KEYS[1]: its theoretical arrival
-- time), and, when given, a pause Telegram asked for with a 429 (KEYS[2]: until when, Unix
-- ms; the token's budget has one, a chat's none). ARGV: the emission interval and the burst
-- tolerance, in ms, and what to do: 'take' (0 when a call may go now, and it is counted,
-- else the milliseconds to wait; a refused call is not counted), 'peek' (the same answer,
-- nothing counted) or 'back' (a call taken and not made is given back; 0).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local mode = ARGV[3]
if mode == 'back' then
  local tat = tonumber(redis.call('GET', KEYS[1]) or '0') - interval
  if tat > now then
    redis.call('SET', KEYS[1], tat, 'PX', tat - now + 1000)
  else
    redis.call('DEL', KEYS[1])
  end
  return 0
end
if KEYS[2] then
  local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
  if paused > now then return paused - now end
end
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allowed_at = tat - tolerance
if now < allowed_at then return allowed_at - now end
if mode == 'peek' then return 0 end
local new_tat = tat + interval
redis.call('SET', KEYS[1], new_tat, 'PX', new_tat - now + 1000)
return 0
