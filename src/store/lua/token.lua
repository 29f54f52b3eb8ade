-- The bot token's budget (every replica's): a GCRA bucket on the server's clock with no burst
-- (KEYS[1]: its theoretical arrival time), a pause Telegram asked for with a 429 (KEYS[2]:
-- until when, Unix ms), and strict priorities (KEYS[3]: a hash, for each priority's rank —
-- 0 the highest — until when a caller of it waits for a turn). ARGV: the emission interval in
-- ms, the caller's rank. 0 when the call may go now (it is counted), else the milliseconds to
-- wait (a refused call is not counted). A caller is refused while one of a higher rank waits,
-- so a turn is never taken from a higher priority that napped through it; with none waiting,
-- every rank goes at the budget's whole pace.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local rank = tonumber(ARGV[2])
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if paused > now then return paused - now end
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local turn = tat - now
for r = 0, rank - 1 do
  local until_ = tonumber(redis.call('HGET', KEYS[3], tostring(r)) or '0')
  if until_ > now then
    -- A higher priority waits: look again once it may have gone.
    return math.max(turn, until_ - now) + 1
  end
end
if turn > 0 then
  -- Waiting for a turn: lower priorities wait behind this one until it comes back (a
  -- caller returns within a quarter of an interval of its turn; half an interval allows for
  -- the round trip, and a turn left idle past that is anybody's).
  local mark = now + turn + math.floor(interval / 2)
  local held = tonumber(redis.call('HGET', KEYS[3], tostring(rank)) or '0')
  if mark > held then
    redis.call('HSET', KEYS[3], tostring(rank), mark)
    redis.call('PEXPIRE', KEYS[3], mark - now + 1000)
  end
  return turn
end
local new_tat = tat + interval
redis.call('SET', KEYS[1], new_tat, 'PX', new_tat - now + 1000)
return 0
