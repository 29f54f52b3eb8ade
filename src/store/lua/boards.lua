-- The live boards that want redraws, across replicas (KEYS: the sorted set; ARGV: the window
-- in ms, then the chats seen by the caller since its last call). Each chat is marked at the
-- server's now; chats not seen for the window are dropped; returns how many are left.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], now, ARGV[i])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('PEXPIRE', KEYS[1], window * 2)
return redis.call('ZCARD', KEYS[1])
