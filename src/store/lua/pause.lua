-- Telegram answered 429 with retry_after: the token's calls pause until ARGV[1] (Unix ms on
-- the caller's clock, given as a delay: ARGV[1] ms from the server's now), on every replica.
-- A longer pause already set is kept.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untill = now + tonumber(ARGV[1])
local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
if paused < untill then
  redis.call('SET', KEYS[1], untill, 'PX', tonumber(ARGV[1]) + 1000)
end
return 0
