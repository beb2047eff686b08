/**
 * Every multi-key decision is one Lua script, so it is atomic across all
 * gateway processes. The lease script mirrors chooseCredential in
 * ../lease-choice.ts; the shared contract suite holds both to the same rule.
 */

/** KEYS: sticky, then (leases, health) per candidate. ARGV: now, ttl, leaseId, stickyTtl, n, then (name, max, priority) per candidate. */
export const ACQUIRE_LEASE = `
local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local lease_id = ARGV[3]
local sticky_ttl = tonumber(ARGV[4])
local n = tonumber(ARGV[5])
local sticky = false
if sticky_ttl > 0 then sticky = redis.call('GET', KEYS[1]) end
local usable = 0
local earliest = false
local chosen = false
local best = false
local best_prio = 0
local best_load = 0
local rejected = {}
for i = 1, n do
  local name = ARGV[5 + (i - 1) * 3 + 1]
  local max = tonumber(ARGV[5 + (i - 1) * 3 + 2])
  local prio = tonumber(ARGV[5 + (i - 1) * 3 + 3])
  local lk = KEYS[1 + (i - 1) * 2 + 1]
  local hk = KEYS[1 + (i - 1) * 2 + 2]
  local h = redis.call('HMGET', hk, 'unhealthy', 'w:5h:exhausted', 'w:5h:reset', 'w:7d:exhausted', 'w:7d:reset')
  if h[1] then
    table.insert(rejected, name)
  else
    local blocked = false
    for w = 0, 1 do
      if h[2 + w * 2] == '1' then
        local reset = tonumber(h[3 + w * 2] or '') or 9007199254740991
        if reset > now and ((not blocked) or reset > blocked) then blocked = reset end
      end
    end
    if blocked then
      if (not earliest) or blocked < earliest then earliest = blocked end
    else
      usable = usable + 1
      redis.call('ZREMRANGEBYSCORE', lk, '-inf', now)
      local in_use = redis.call('ZCARD', lk)
      if in_use < max then
        if sticky and sticky == name then
          chosen = i
          break
        end
        local load = in_use / max
        if (not best) or prio > best_prio or (prio == best_prio and load < best_load) then
          best = i
          best_prio = prio
          best_load = load
        end
      end
    end
  end
end
if not chosen then chosen = best end
if chosen then
  local lk = KEYS[1 + (chosen - 1) * 2 + 1]
  redis.call('ZADD', lk, now + ttl, lease_id)
  redis.call('PEXPIRE', lk, ttl * 4)
  local name = ARGV[5 + (chosen - 1) * 3 + 1]
  if sticky_ttl > 0 then redis.call('SET', KEYS[1], name, 'PX', sticky_ttl) end
  return {'ok', name}
end
if usable > 0 then return {'busy'} end
if earliest then return {'exhausted', tostring(earliest)} end
if #rejected > 0 then
  table.insert(rejected, 1, 'rejected')
  return rejected
end
return {'busy'}
`;

/**
 * KEYS: slots or leases. ARGV: now, ttl, member. Renews the member, and writes it again where it is missing: the
 * request is alive, and a failover may have lost its entry (acknowledged by the old primary, never replicated).
 * So a lost slot or lease lets others in for at most one renewal period, and the set counts every live request
 * again after it (above the cap if others came in meanwhile, which then wait).
 */
export const RENEW_ZSET_MEMBER = `
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 4)
return 1
`;

/** KEYS: slots. ARGV: now, ttl, limit, requestId. */
export const ACQUIRE_SLOT = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[4])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 4)
  return 1
end
return 0
`;

/**
 * KEYS: counters, then the request's reservation key. ARGV: amount, then (limit, expireAt) per counter, then the
 * reservation's TTL ms. Returns 0 when reserved, else the 1-based index that would pass its limit. The reservation
 * key says how much this request holds in the counters, in the same atomic write: on any node, a counter holds a
 * request's reservation exactly when its key is there, which is what lets a settlement replace it exactly once.
 */
export const RESERVE_SPEND = `
local amount = tonumber(ARGV[1])
local n = #KEYS - 1
for i = 1, n do
  local current = tonumber(redis.call('GET', KEYS[i]) or '0')
  if current + amount > tonumber(ARGV[2 + (i - 1) * 2]) then return i end
end
for i = 1, n do
  redis.call('INCRBY', KEYS[i], amount)
  redis.call('PEXPIREAT', KEYS[i], tonumber(ARGV[3 + (i - 1) * 2]))
end
redis.call('SET', KEYS[n + 1], amount, 'PX', tonumber(ARGV[2 + n * 2]))
return 0
`;

/** KEYS: the request's reservation key, then its counters. Gives the reservation back once (1), or finds it gone (0). */
export const RELEASE_RESERVATION = `
local reserved = tonumber(redis.call('GET', KEYS[1]) or '0')
if reserved == 0 then return 0 end
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('INCRBY', KEYS[i], -reserved) end
end
return 1
`;

/**
 * KEYS: usage-id, stream, days-set, then 5 aggregate keys (address, model, repo, application, end_user), then the
 * exported marker, then (when the request reserved spend) its reservation key and its spend counters.
 * ARGV: record JSON, id TTL ms, stream max length, day, retention ms, input, output, cache creation, cache read, cost micros,
 * then 5 group values, then the backlog cap, then (with spend) the metered cost in micros and (limit, expireAt) per counter.
 * Idempotent by request id: a second write of the same id changes nothing ({0, 0}). While an exporter moves the
 * stream to PostgreSQL it is never trimmed; past the backlog cap the record is refused ({-1, 0}) and stays with the caller.
 * A new record settles the request's spend in the same atomic write: its reservation, if this node holds it, is
 * replaced by the metered cost; if not (never made here, or lost with a failed primary), the cost is added alone.
 * So a record written again after a failover restores its spend with it, and never counts it twice. Returns
 * {1, overshoot}: how far this settlement pushed a counter further past its limit (micros, 0 when none did).
 */
export const RECORD_USAGE = `
local exported = redis.call('EXISTS', KEYS[9]) == 1
if exported and redis.call('XLEN', KEYS[2]) >= tonumber(ARGV[16]) then return {-1, 0} end
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', tonumber(ARGV[2])) then return {0, 0} end
if exported then
  redis.call('XADD', KEYS[2], '*', 'r', ARGV[1])
else
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', tonumber(ARGV[3]), '*', 'r', ARGV[1])
end
redis.call('SADD', KEYS[3], ARGV[4])
local fields = {'requests', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'cost_micros'}
local values = {1, tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])}
for g = 1, 5 do
  local key = KEYS[3 + g]
  local value = ARGV[10 + g]
  for f = 1, 6 do redis.call('HINCRBY', key, value .. '|' .. fields[f], values[f]) end
  redis.call('PEXPIRE', key, tonumber(ARGV[5]))
end
local overshoot = 0
if #KEYS > 10 then
  local reserved = tonumber(redis.call('GET', KEYS[10]) or '0')
  if reserved ~= 0 then redis.call('DEL', KEYS[10]) end
  local delta = tonumber(ARGV[17]) - reserved
  for i = 11, #KEYS do
    local limit = tonumber(ARGV[18 + (i - 11) * 2])
    local before = tonumber(redis.call('GET', KEYS[i]) or '0')
    local after = redis.call('INCRBY', KEYS[i], delta)
    redis.call('PEXPIREAT', KEYS[i], tonumber(ARGV[19 + (i - 11) * 2]))
    local added = math.max(0, after - limit) - math.max(0, before - limit)
    if added > overshoot then overshoot = added end
  end
end
return {1, overshoot}
`;

/**
 * A company's own keys in one step, fenced: KEYS fence, records, token set,
 * then a fingerprint key and a health key per credential. ARGV: epoch (-1 =
 * unfenced), records blob, credential count, the fingerprints, then the
 * wanted token hashes. Refuses ('fenced', current) when a newer epoch has
 * written this company; otherwise returns ('ok', hashes no longer wanted),
 * which the caller then drops from the token keys.
 */
export const REPLACE_COMPANY = `
local epoch = tonumber(ARGV[1])
if epoch >= 0 then
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  if epoch < current then return {'fenced', tostring(current)} end
  if epoch > current then redis.call('SET', KEYS[1], epoch) end
end
local n = tonumber(ARGV[3])
for i = 1, n do
  local fp = ARGV[3 + i]
  local previous = redis.call('GET', KEYS[3 + i])
  redis.call('SET', KEYS[3 + i], fp)
  -- A rotated secret starts healthy; an unchanged one keeps what the upstream taught us.
  if previous and previous ~= fp then redis.call('DEL', KEYS[3 + n + i]) end
end
redis.call('SET', KEYS[2], ARGV[2])
local wanted = {}
for i = 4 + n, #ARGV do wanted[ARGV[i]] = true end
local out = {'ok'}
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  if not wanted[hash] then
    redis.call('SREM', KEYS[3], hash)
    table.insert(out, hash)
  end
end
return out
`;

/**
 * Removes a company's keys, fenced like REPLACE_COMPANY: KEYS fence, records,
 * token set, then any runtime keys to delete. ARGV: epoch (-1 = unfenced).
 * Returns ('ok', the hashes the company held) or ('fenced', current).
 */
export const REMOVE_COMPANY = `
local epoch = tonumber(ARGV[1])
if epoch >= 0 then
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  if epoch < current then return {'fenced', tostring(current)} end
  if epoch > current then redis.call('SET', KEYS[1], epoch) end
end
local out = {'ok'}
for _, hash in ipairs(redis.call('SMEMBERS', KEYS[3])) do table.insert(out, hash) end
for i = 2, #KEYS do redis.call('DEL', KEYS[i]) end
return out
`;

/**
 * KEYS: token. ARGV: record JSON, company, epoch. Sets the token unless it
 * is revoked (0: revocation is final), another company holds it (0), or a
 * newer epoch E wrote it (-(E + 1), always < 0: this writer is stale, and
 * learns which epoch to rise above if it still holds the Lease).
 */
export const CLAIM_TOKEN = `
local current = redis.call('GET', KEYS[1])
if current then
  local held = cjson.decode(current)
  if held.revoked then return 0 end
  if held.company ~= ARGV[2] then return 0 end
  local newer = tonumber(held.epoch or 0)
  if newer > tonumber(ARGV[3]) then return -(newer + 1) end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`;

/** KEYS: token. ARGV: company, epoch. Deletes a live token only if this company holds it and no newer epoch E wrote it (-(E + 1) then, as CLAIM_TOKEN). */
export const DROP_TOKEN = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
local held = cjson.decode(current)
if held.revoked or held.company ~= ARGV[1] then return 0 end
local newer = tonumber(held.epoch or 0)
if newer > tonumber(ARGV[2]) then return -(newer + 1) end
redis.call('DEL', KEYS[1])
return 1
`;
