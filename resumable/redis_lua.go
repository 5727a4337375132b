package resumable

import "github.com/redis/go-redis/v9"

// The keys of a [Redis] store, each under its prefix P:
//
//	P m:ID      hash    a stream's meta: chat, run, msg, owner, proto,
//	                    created, updated, len, first, bytes, dropped, and
//	                    its end (end, end_at, end_detail) once it has one
//	P s:ID      stream  its items: index i is entry (i+1)-1 with field d;
//	                    the end marker is entry (len+1)-0 with field e
//	P t:ID      hash    what a reader is told once the stream is gone: why,
//	                    ended, detail (the time to live until the bounds
//	                    evict it, then the bound)
//	P r:RUN     string  the stream a run id names
//	P c:CHAT    hash    a chat: owner, active, latest
//	P running   zset    streams being written, by their last write (ms; a
//	                    stamp, below)
//	P ended     zset    streams ended, by their end (ms; a stamp)
//	P clock     string  the last stamp given: a score of the queues is the
//	                    write's time, or 0.001 ms past the last stamp where
//	                    that is later, so that writes within one millisecond
//	                    keep their order (a zset orders equal scores by
//	                    member, not by when they came)
//	P size      hash    the bytes each stream counts
//	P total     string  the bytes all streams count
//	P epoch     hash    id (random, set by the first store to open), and
//	                    lost (ms) when a store saw the id change: Redis
//	                    lost its data then
//
// Every time is Redis's (TIME), so that the instances sharing it agree.
// The scripts compute their keys from the prefix: the store needs one
// Redis server (or a primary), not a Redis Cluster.
//
// The scripts' ARGV start with the prefix and the bounds: P, ttl (ms),
// max chunks, max bytes, max streams, max total bytes, item overhead.
const luaCommon = `
local P = ARGV[1]
local TTL = tonumber(ARGV[2])
local MAXC = tonumber(ARGV[3])
local MAXB = tonumber(ARGV[4])
local MAXS = tonumber(ARGV[5])
local MAXT = tonumber(ARGV[6])
local OV = tonumber(ARGV[7])
local A = 8

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- stamp returns the score of a write at now in the queues (see P clock).
local function stamp(now)
  local last = tonumber(redis.call('GET', P..'clock') or '0')
  local s = string.format('%.3f', math.max(now, last + 0.001))
  redis.call('SET', P..'clock', s)
  return s
end

local function taken(id)
  return redis.call('EXISTS', P..'m:'..id, P..'r:'..id, P..'c:'..id, P..'t:'..id) > 0
end

-- gone answers an operation on a stream that is not kept: its eviction,
-- or not found.
local function gone(id)
  local t = redis.call('HMGET', P..'t:'..id, 'why', 'ended', 'detail')
  if t[1] then return {'evicted', id, t[1], t[2] or '', t[3] or ''} end
  return {'notfound', id}
end

-- touch renews the time to live of stream id and of the keys that lead to it.
local function touch(id, chat, run)
  redis.call('PEXPIRE', P..'m:'..id, TTL)
  redis.call('PEXPIRE', P..'s:'..id, TTL)
  redis.call('PEXPIRE', P..'t:'..id, 2 * TTL)
  redis.call('PEXPIRE', P..'c:'..chat, 2 * TTL)
  if run ~= '' then redis.call('PEXPIRE', P..'r:'..run, 2 * TTL) end
end

-- EV lists the streams a script evicted (id, why, ended, detail each),
-- for the stores that write them.
local EV = {}

-- evict drops stream id, leaving what a reader is told.
local function evict(id, why, detail)
  local m = redis.call('HMGET', P..'m:'..id, 'chat', 'end')
  EV[#EV + 1] = id
  EV[#EV + 1] = why
  EV[#EV + 1] = m[2] or ''
  EV[#EV + 1] = detail
  redis.call('DEL', P..'m:'..id, P..'s:'..id)
  local b = tonumber(redis.call('HGET', P..'size', id) or '0')
  redis.call('HDEL', P..'size', id)
  redis.call('DECRBY', P..'total', b)
  redis.call('ZREM', P..'running', id)
  redis.call('ZREM', P..'ended', id)
  redis.call('HSET', P..'t:'..id, 'why', why, 'detail', detail)
  if m[2] then redis.call('HSET', P..'t:'..id, 'ended', m[2]) end
  redis.call('PEXPIRE', P..'t:'..id, TTL)
  if m[1] and redis.call('HGET', P..'c:'..m[1], 'active') == id then
    redis.call('HSET', P..'c:'..m[1], 'active', '')
  end
end

-- expire forgets the streams whose time to live is over (Redis dropped
-- their keys; their tombs say age): their bytes, their places in the queues.
local function expire(now)
  for _, q in ipairs({'running', 'ended'}) do
    local old = redis.call('ZRANGE', P..q, '-inf', now - TTL, 'BYSCORE', 'LIMIT', 0, 256)
    for _, id in ipairs(old) do
      local b = tonumber(redis.call('HGET', P..'size', id) or '0')
      redis.call('HDEL', P..'size', id)
      redis.call('DECRBY', P..'total', b)
      redis.call('ZREM', P..q, id)
      redis.call('DEL', P..'m:'..id, P..'s:'..id)
    end
  end
end

-- enforce evicts streams past the store's bounds: the one that ended
-- first, else the one written least recently.
local function enforce(now)
  expire(now)
  while true do
    local n = redis.call('ZCARD', P..'running') + redis.call('ZCARD', P..'ended')
    local total = tonumber(redis.call('GET', P..'total') or '0')
    local why, detail
    if n > MAXS then
      why, detail = 'streams', 'the store keeps at most '..MAXS..' streams'
    elseif total > MAXT then
      why, detail = 'bytes', 'the store keeps at most '..MAXT..' bytes'
    else
      return
    end
    local id = redis.call('ZRANGE', P..'ended', 0, 0)[1] or redis.call('ZRANGE', P..'running', 0, 0)[1]
    if not id then return end
    evict(id, why, detail)
  end
end

-- add appends items ARGV[from..to] to stream id at index len, keeping its
-- bounds: XADD caps the stream at MAXC items (the bytes of those it drops
-- counted first), then the oldest are trimmed past MAXB bytes. It returns
-- the new len, first, bytes and dropped.
local function add(id, len, first, bytes, dropped, from, to)
  local s = P..'s:'..id
  local n = to - from + 1
  if n <= 0 then return len, first, bytes, dropped end
  local over = (len - first) + n - MAXC
  if over > 0 then
    local old = math.min(over, len - first)
    if old > 0 then
      for _, e in ipairs(redis.call('XRANGE', s, '-', '+', 'COUNT', old)) do
        bytes = bytes - #e[2][2] - OV
      end
    end
    first = first + over
    dropped = 'chunks'
  end
  for i = 0, n - 1 do
    local idx = len + i
    if idx >= first then
      redis.call('XADD', s, 'MAXLEN', MAXC, (idx + 1)..'-1', 'd', ARGV[from + i])
      bytes = bytes + #ARGV[from + i] + OV
    end
  end
  len = len + n
  while bytes > MAXB and first < len do
    local es = redis.call('XRANGE', s, (first + 1)..'-0', '+', 'COUNT', 64)
    if #es == 0 then break end
    for _, e in ipairs(es) do
      if bytes <= MAXB or e[2][1] ~= 'd' then break end
      bytes = bytes - #e[2][2] - OV
      first = first + 1
      dropped = 'bytes'
    end
    redis.call('XTRIM', s, 'MINID', (first + 1)..'-0')
  end
  return len, first, bytes, dropped
end

-- write appends ARGV[from..to] to stream id, which must be m (its meta),
-- and settles the bounds and the times to live.
local function write(id, m, from, to, now)
  local len, first, bytes, dropped = add(id, tonumber(m[1]), tonumber(m[2]), tonumber(m[3]), m[4] or '', from, to)
  local delta = bytes - tonumber(m[3])
  redis.call('HSET', P..'m:'..id, 'len', len, 'first', first, 'bytes', bytes, 'dropped', dropped, 'updated', now)
  redis.call('HSET', P..'size', id, bytes)
  redis.call('INCRBY', P..'total', delta)
  return len
end

local META = {'len', 'first', 'bytes', 'dropped', 'end', 'chat', 'run'}

-- ok answers a write: {'ok', len, EV...}.
local function ok(len)
  local out = {'ok', len}
  for _, v in ipairs(EV) do out[#out + 1] = v end
  return out
end

-- writable returns stream id's meta (META's fields) for a write at index
-- at (-1: its length), or nil and the reply that refuses the write.
local function writable(id, at)
  local m = redis.call('HMGET', P..'m:'..id, unpack(META))
  if not m[1] then return nil, gone(id) end
  if m[5] then return nil, {'ended', m[5]} end
  if at >= 0 and at ~= tonumber(m[1]) then return nil, {'index', m[1]} end
  return m
end

-- settle renews the times to live of stream id (of meta m), keeps the
-- store's bounds and answers the write: ok, or gone when the bounds
-- evicted the stream itself.
local function settle(id, m, len, now)
  touch(id, m[6], m[7] or '')
  enforce(now)
  if redis.call('EXISTS', P..'m:'..id) == 0 then return gone(id) end
  return ok(len)
end
`

// redisCreate: ARGV[A..] id, chat, run, msg, owner, proto, created (ms,
// or empty).
var redisCreate = redis.NewScript(luaCommon + `
local id, chat, run = ARGV[A], ARGV[A+1], ARGV[A+2]
local now = now_ms()
expire(now)
if taken(id) then return {'exists', 'stream id "'..id..'"'} end
if run ~= '' and (taken(run) or run == id) then return {'exists', 'run id "'..run..'"'} end
if chat == id or chat == run then return {'exists', 'chat id "'..chat..'" is the stream\'s or the run\'s'} end
if redis.call('EXISTS', P..'m:'..chat, P..'r:'..chat, P..'t:'..chat) > 0 then
  return {'exists', 'chat id "'..chat..'" names a stream or a run'}
end
local owner = redis.call('HGET', P..'c:'..chat, 'owner')
if owner and owner ~= ARGV[A+4] then return {'owner', 'chat "'..chat..'"'} end
local created = ARGV[A+6]
if created == '' then created = tostring(now) end
redis.call('HSET', P..'m:'..id, 'chat', chat, 'run', run, 'msg', ARGV[A+3], 'owner', ARGV[A+4],
  'proto', ARGV[A+5], 'created', created, 'updated', now, 'len', 0, 'first', 0, 'bytes', 0)
redis.call('HSET', P..'t:'..id, 'why', 'age', 'detail', 'not written for its time to live of '..TTL..'ms')
if run ~= '' then redis.call('SET', P..'r:'..run, id) end
redis.call('HSET', P..'c:'..chat, 'owner', ARGV[A+4], 'active', id, 'latest', id)
redis.call('ZADD', P..'running', stamp(now), id)
redis.call('HSET', P..'size', id, 0)
touch(id, chat, run)
enforce(now)
if redis.call('EXISTS', P..'m:'..id) == 0 then return gone(id) end
return ok(0)
`)

// redisAppend: ARGV[A..] id, at (not negative), items.
var redisAppend = redis.NewScript(luaCommon + `
local id = ARGV[A]
local now = now_ms()
expire(now)
local m, refused = writable(id, tonumber(ARGV[A+1]))
if not m then return refused end
local len = write(id, m, A + 2, #ARGV, now)
redis.call('ZADD', P..'running', stamp(now), id)
return settle(id, m, len, now)
`)

// redisEnd: ARGV[A..] id, at (the index of the first item; -1: the
// stream's length), reason, at time (ms, or empty), detail, items (the
// writer's last items, then the tail).
var redisEnd = redis.NewScript(luaCommon + `
local id = ARGV[A]
local now = now_ms()
expire(now)
local m, refused = writable(id, tonumber(ARGV[A+1]))
if not m then return refused end
local len = write(id, m, A + 5, #ARGV, now)
local endAt = ARGV[A+3]
if endAt == '' then endAt = tostring(now) end
redis.call('XADD', P..'s:'..id, (len + 1)..'-0', 'e', ARGV[A+2])
redis.call('HSET', P..'m:'..id, 'end', ARGV[A+2], 'end_at', endAt, 'end_detail', ARGV[A+4])
redis.call('HSET', P..'t:'..id, 'ended', ARGV[A+2])
redis.call('ZREM', P..'running', id)
redis.call('ZADD', P..'ended', stamp(now), id)
if redis.call('HGET', P..'c:'..m[6], 'active') == id then
  redis.call('HSET', P..'c:'..m[6], 'active', '')
end
return settle(id, m, len, now)
`)

// redisRead: ARGV[A..] id, from, count. It answers {'ok', from, end,
// end_at, end_detail, items...} (end empty unless the items reach the
// end of an ended stream), {'trimmed', first, dropped}, or gone.
var redisRead = redis.NewScript(luaCommon + `
local id, from, count = ARGV[A], tonumber(ARGV[A+1]), tonumber(ARGV[A+2])
local m = redis.call('HMGET', P..'m:'..id, 'len', 'first', 'dropped', 'end', 'end_at', 'end_detail')
if not m[1] then return gone(id) end
local len, first = tonumber(m[1]), tonumber(m[2])
if from < first then return {'trimmed', first, m[3] or ''} end
local out = {'ok', from, '', '', ''}
if from < len then
  for _, e in ipairs(redis.call('XRANGE', P..'s:'..id, (from + 1)..'-1', len..'-1', 'COUNT', count)) do
    out[#out + 1] = e[2][2]
  end
end
if m[4] and from + #out - 5 >= len then
  out[3], out[4], out[5] = m[4], m[5], m[6] or ''
end
return out
`)

// redisStat: ARGV[A..] id (a stream or run id). It answers {'ok', id,
// meta fields and values...} or gone.
var redisStat = redis.NewScript(luaCommon + `
local id = ARGV[A]
local sid = redis.call('GET', P..'r:'..id)
if sid then id = sid end
local m = redis.call('HGETALL', P..'m:'..id)
if #m == 0 then return gone(id) end
table.insert(m, 1, id)
table.insert(m, 1, 'ok')
return m
`)

// redisChat: ARGV[A..] chat. It answers {'ok', owner, active, latest}
// (active empty when that stream is gone) or {'notfound'}.
var redisChat = redis.NewScript(luaCommon + `
local c = redis.call('HMGET', P..'c:'..ARGV[A], 'owner', 'active', 'latest')
if not c[1] then return {'notfound', ARGV[A]} end
local active = c[2] or ''
if active ~= '' and redis.call('EXISTS', P..'m:'..active) == 0 then active = '' end
return {'ok', c[1], active, c[3] or ''}
`)

// redisEpoch: ARGV[A..] the id this store saw (empty: none yet), a new id
// to set when the key is missing. It answers {id, lost (ms, or empty)}:
// when the key is missing and the store saw one, or the id differs from
// the one it saw, Redis lost its data, and lost is set to now.
var redisEpoch = redis.NewScript(luaCommon + `
local k = P..'epoch'
local seen = ARGV[A]
local id = redis.call('HGET', k, 'id')
if not id then
  id = ARGV[A+1]
  redis.call('HSET', k, 'id', id)
  if seen ~= '' then redis.call('HSET', k, 'lost', now_ms()) end
elseif seen ~= '' and id ~= seen then
  redis.call('HSETNX', k, 'lost', now_ms())
end
return {id, redis.call('HGET', k, 'lost') or ''}
`)
