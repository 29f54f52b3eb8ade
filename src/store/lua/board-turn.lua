-- The live boards' queue for the bot token (every replica's): each board due for a redraw
-- takes the next free turn, first come first served, the turns `ARGV[1]` microseconds apart
-- (KEYS[1]: the next free turn, in microseconds on the server's clock). Returns how many
-- milliseconds until the caller's turn (0: now). Nobody polls: a caller sleeps until its turn.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local spacing = tonumber(ARGV[1])
local turn = tonumber(redis.call('GET', KEYS[1]) or '0')
if turn < now then turn = now end
local next_ = turn + spacing
redis.call('SET', KEYS[1], string.format('%d', next_), 'PX', math.floor((next_ - now) / 1000) + 1000)
return math.floor((turn - now) / 1000)
