import { createHash } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import type { UsageRecord } from '../../metering/usage-record.js';
import { USAGE_GROUPS, emptyTotals, sameModel, type LogQuery, type UsageQuery, type UsageTotals } from '../queries.js';
import type { CompanyRecords, TokenRecord } from '../records.js';
import type { SecretBox } from '../secret-box.js';
import {
  FencedWrite,
  type CallerSlotRequest,
  type CredentialHealth,
  type GatewayState,
  type Lease,
  type LeaseOutcome,
  type LeaseRequest,
  type RevokedToken,
  type SeatWindow,
  type SpendCheck,
  type SpendOutcome,
  type WriteFence,
} from '../state.js';
import { decodeCompany, encodeCompany } from './company-codec.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import { EXPORTED_MARKER_TTL_MS } from './usage-stream-source.js';
import { ACQUIRE_LEASE, ACQUIRE_SLOT, ADJUST_SPEND, CLAIM_TOKEN, DROP_TOKEN, RECORD_USAGE, REMOVE_COMPANY, RENEW_ZSET_MEMBER, REPLACE_COMPANY, RESERVE_SPEND } from './scripts.js';

const STICKY_TTL_MS = 60 * 60 * 1000;
const USAGE_ID_TTL_MS = 24 * 60 * 60 * 1000;
const STREAM_MAX = 100_000;
const AGGREGATE_RETENTION_MS = 400 * 24 * 60 * 60 * 1000;
const SLOT_POLL_MS = 25;
const MAX_BUFFERED_RECORDS = 50_000;
/** Records one company's stream may hold unexported while PostgreSQL is away (docs/usage-store.md). */
export const DEFAULT_USAGE_BACKLOG_MAX = 1_000_000;
const LOG_SCAN_LIMIT = 100_000;

/** A token key's value: a live record with the epoch that wrote it, or a revocation tombstone. */
interface StoredToken extends TokenRecord {
  readonly epoch?: number;
  readonly revoked?: boolean;
}

type ScriptRunner = (numKeys: number, ...args: Array<string | number>) => Promise<unknown>;

export interface RedisStateOptions {
  readonly now?: () => number;
  /** Called when buffered usage records could not be written and are kept for a retry. */
  readonly onBuffered?: (count: number) => void;
  /** Called for each record given up because the retry buffer was full (oldest first). */
  readonly onDropped?: (record: UsageRecord) => void;
  /** Per-company stream bound while an exporter moves records to PostgreSQL. */
  readonly usageBacklogMax?: number;
}

/** Redis refused a record: the company's stream holds as many unexported records as allowed. */
export class UsageBacklogFull extends Error {}

/**
 * GatewayState shared by every gateway process through one Redis (or Redis
 * Cluster). Token lookups hit Redis on every request, so a revocation takes
 * effect on the very next request with no cache to go stale; company
 * records are cached per process keyed by their exact stored text.
 */
export class RedisState implements GatewayState {
  readonly kind = 'redis' as const;
  private readonly now: () => number;
  private readonly parsed = new Map<string, { raw: string; records: CompanyRecords }>();
  private readonly buffer: UsageRecord[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly knownUsageCompanies = new Set<string>();
  private readonly droppedByCompany = new Map<string, number>();
  private readonly run: Record<'lease' | 'renew' | 'slot' | 'reserve' | 'adjust' | 'usage' | 'claim' | 'drop' | 'replace' | 'remove', ScriptRunner>;

  constructor(
    private readonly redis: RedisClient,
    private readonly box: SecretBox,
    private readonly options: RedisStateOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    const define = (name: string, lua: string): ScriptRunner => {
      redis.defineCommand(name, { lua });
      const command = (redis as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[name];
      if (!command) throw new Error(`script ${name} was not defined`);
      return (numKeys, ...args) => command.call(redis, numKeys, ...args);
    };
    this.run = {
      lease: define('gwAcquireLease', ACQUIRE_LEASE),
      renew: define('gwRenewMember', RENEW_ZSET_MEMBER),
      slot: define('gwAcquireSlot', ACQUIRE_SLOT),
      reserve: define('gwReserveSpend', RESERVE_SPEND),
      adjust: define('gwAdjustSpend', ADJUST_SPEND),
      usage: define('gwRecordUsage', RECORD_USAGE),
      claim: define('gwClaimToken', CLAIM_TOKEN),
      drop: define('gwDropToken', DROP_TOKEN),
      replace: define('gwReplaceCompany', REPLACE_COMPANY),
      remove: define('gwRemoveCompany', REMOVE_COMPANY),
    };
  }

  /** Resolves once connected (or rejects after `timeoutMs`). */
  async ready(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.redis.status !== 'ready') {
      if (Date.now() > deadline) throw new Error(`Redis not reachable within ${timeoutMs} ms (status ${this.redis.status})`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async findToken(hash: string): Promise<TokenRecord | null> {
    const raw = await this.redis.get(keys.token(hash));
    if (raw === null) return null;
    const stored = JSON.parse(raw) as StoredToken;
    if (stored.revoked) return null;
    return { hash: stored.hash, company: stored.company, name: stored.name, address: stored.address };
  }

  async getCompany(company: string): Promise<CompanyRecords | null> {
    const raw = await this.redis.get(keys.records(company));
    if (raw === null) return null;
    const cached = this.parsed.get(company);
    if (cached && cached.raw === raw) return cached.records;
    const records = decodeCompany(raw, this.box);
    this.parsed.set(company, { raw, records });
    return records;
  }

  async acquireCallerSlot(request: CallerSlotRequest): Promise<boolean> {
    const key = keys.slots(request.company, request.tokenHash);
    const deadline = this.now() + request.waitMs;
    for (;;) {
      const got = await this.run.slot(1, key, this.now(), request.ttlMs, request.limit, request.requestId);
      if (got === 1) return true;
      const remaining = deadline - this.now();
      if (remaining <= 0) return false;
      await new Promise((r) => setTimeout(r, Math.min(SLOT_POLL_MS, remaining)));
    }
  }

  async renewCallerSlot(company: string, tokenHash: string, requestId: string, ttlMs: number): Promise<void> {
    await this.run.renew(1, keys.slots(company, tokenHash), this.now(), ttlMs, requestId);
  }

  async releaseCallerSlot(company: string, tokenHash: string, requestId: string): Promise<void> {
    await this.redis.zrem(keys.slots(company, tokenHash), requestId);
  }

  async acquireLease(request: LeaseRequest): Promise<LeaseOutcome> {
    const { company } = request;
    const leaseId = `${request.requestId}:${Math.random().toString(36).slice(2, 8)}`;
    const keyArgs: string[] = [keys.sticky(company, request.session ?? '-')];
    const argv: Array<string | number> = [this.now(), request.ttlMs, leaseId, request.session === null ? 0 : STICKY_TTL_MS, request.candidates.length];
    for (const c of request.candidates) {
      keyArgs.push(keys.leases(company, c.name), keys.health(company, c.name));
      argv.push(c.name, c.maxConcurrency, c.priority);
    }
    const result = (await this.run.lease(keyArgs.length, ...keyArgs, ...argv)) as string[];
    if (result[0] === 'ok') {
      const credential = request.candidates.find((c) => c.name === result[1]);
      if (!credential) throw new Error('lease script chose an unknown credential');
      return { ok: true, lease: { id: leaseId, company, credential } };
    }
    if (result[0] === 'rejected') return { ok: false, reason: 'rejected', credentials: result.slice(1) };
    if (result[0] === 'exhausted') {
      const reset = Number(result[1]);
      return { ok: false, reason: 'exhausted', earliestReset: reset >= Number.MAX_SAFE_INTEGER ? null : reset };
    }
    return { ok: false, reason: 'busy' };
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<void> {
    await this.run.renew(1, keys.leases(lease.company, lease.credential.name), this.now(), ttlMs, lease.id);
  }

  async releaseLease(lease: Lease): Promise<void> {
    await this.redis.zrem(keys.leases(lease.company, lease.credential.name), lease.id);
  }

  async reserveSpend(company: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    if (checks.length === 0) return { ok: true };
    const args: Array<string | number> = checks.map((c) => keys.spend(company, c.counter));
    args.push(amountMicros);
    for (const c of checks) args.push(c.limitMicros, c.resetAt + 24 * 60 * 60 * 1000);
    const failed = Number(await this.run.reserve(checks.length, ...args));
    return failed === 0 ? { ok: true } : { ok: false, failed: checks[failed - 1] as SpendCheck };
  }

  async adjustSpend(company: string, checks: readonly SpendCheck[], deltaMicros: number): Promise<void> {
    if (checks.length === 0 || deltaMicros === 0) return;
    await this.run.adjust(checks.length, ...checks.map((c) => keys.spend(company, c.counter)), Math.round(deltaMicros));
  }

  async spendOf(company: string, counter: string): Promise<number> {
    return Number((await this.redis.get(keys.spend(company, counter))) ?? '0');
  }

  async credentialHealth(company: string, credential: string): Promise<CredentialHealth> {
    const h = await this.redis.hgetall(keys.health(company, credential));
    const windows: SeatWindow[] = [];
    for (const w of ['5h', '7d']) {
      if (h[`w:${w}:exhausted`] === undefined) continue;
      const reset = h[`w:${w}:reset`];
      const util = h[`w:${w}:utilization`];
      windows.push({ window: w, exhausted: h[`w:${w}:exhausted`] === '1', resetAt: reset ? Number(reset) : null, utilization: util ? Number(util) : null });
    }
    return { healthy: h.unhealthy === undefined, reason: h.unhealthy ?? null, windows };
  }

  async markCredentialUnhealthy(company: string, credential: string, reason: string): Promise<void> {
    await this.redis.hset(keys.health(company, credential), 'unhealthy', reason);
  }

  async markCredentialHealthy(company: string, credential: string): Promise<void> {
    // Only the field goes: the hash keeps the seat windows, and its shape stays what the operator reads.
    await this.redis.hdel(keys.health(company, credential), 'unhealthy');
  }

  async updateSeatWindows(company: string, credential: string, windows: readonly SeatWindow[]): Promise<void> {
    const fields: Record<string, string> = {};
    for (const w of windows) {
      fields[`w:${w.window}:exhausted`] = w.exhausted ? '1' : '0';
      fields[`w:${w.window}:reset`] = w.resetAt === null ? '' : String(w.resetAt);
      fields[`w:${w.window}:utilization`] = w.utilization === null ? '' : String(w.utilization);
    }
    if (Object.keys(fields).length > 0) await this.redis.hset(keys.health(company, credential), fields);
  }

  async recordUsage(record: UsageRecord): Promise<void> {
    try {
      await this.writeUsage(record);
    } catch {
      // Kept and retried: a Redis restart must not lose usage. Bounded so an outage cannot exhaust memory.
      if (this.buffer.length >= MAX_BUFFERED_RECORDS) {
        const dropped = this.buffer.shift() as UsageRecord;
        this.droppedByCompany.set(dropped.company, (this.droppedByCompany.get(dropped.company) ?? 0) + 1);
        this.options.onDropped?.(dropped);
      }
      this.buffer.push(record);
      this.options.onBuffered?.(this.buffer.length);
      this.scheduleFlush();
    }
  }

  /** Records waiting for Redis to come back. */
  bufferedRecords(): number {
    return this.buffer.length;
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, 250);
    this.flushTimer.unref();
  }

  async flush(): Promise<void> {
    while (this.buffer.length > 0) {
      const record = this.buffer[0] as UsageRecord;
      try {
        await this.writeUsage(record);
      } catch {
        this.scheduleFlush();
        return;
      }
      this.buffer.shift();
    }
    this.options.onBuffered?.(0);
  }

  private async writeUsage(record: UsageRecord): Promise<void> {
    const c = record.company;
    if (!this.knownUsageCompanies.has(c)) {
      // Exporters run here but none may have seen this company yet: mark its stream now, so not even
      // its first records can be trimmed before they are exported.
      if ((await this.redis.exists(keys.usageExportOn())) === 1) await this.redis.set(keys.usageExported(c), '1', 'PX', EXPORTED_MARKER_TTL_MS, 'NX');
      await this.redis.sadd(keys.usageCompanies(), c);
      this.knownUsageCompanies.add(c);
    }
    const day = record.time.slice(0, 10);
    const aggKeys = USAGE_GROUPS.map((g) => keys.aggregate(c, day, g));
    const groupValues = USAGE_GROUPS.map((g) => {
      const v = record[g];
      return typeof v === 'string' ? v : '';
    });
    const written = await this.run.usage(
      4 + aggKeys.length,
      keys.usageId(c, record.request_id),
      keys.usageStream(c),
      keys.aggregateDays(c),
      ...aggKeys,
      keys.usageExported(c),
      JSON.stringify(record),
      USAGE_ID_TTL_MS,
      STREAM_MAX,
      day,
      AGGREGATE_RETENTION_MS,
      record.input_tokens,
      record.output_tokens,
      record.cache_creation_input_tokens,
      record.cache_read_input_tokens,
      Math.round((record.cost_usd ?? 0) * 1e6),
      ...groupValues,
      this.options.usageBacklogMax ?? DEFAULT_USAGE_BACKLOG_MAX,
    );
    if (written === -1) throw new UsageBacklogFull(`the usage stream of ${c} is full until the exporter catches up`);
  }

  /**
   * Records of `company` (or all) that Redis no longer holds although never
   * exported: trimmed by the stream cap when no exporter runs, or given up
   * by this process when its retry buffer overflowed.
   */
  async usageDropped(company: string | undefined): Promise<number> {
    let total = 0;
    for (const c of await this.companiesFor(company)) {
      total += this.droppedByCompany.get(c) ?? 0;
      if ((await this.redis.exists(keys.usageExported(c))) === 1) continue;
      const info = (await this.redis.call('XINFO', 'STREAM', keys.usageStream(c)).catch(() => null)) as unknown[] | null;
      if (!info) continue;
      const field = (name: string): number => Number(info[info.indexOf(name) + 1] ?? 0);
      // Without an exporter nothing deletes entries, so whatever was added and is gone was trimmed.
      total += Math.max(0, field('entries-added') - field('length'));
    }
    return total;
  }

  private async companiesFor(company: string | undefined): Promise<string[]> {
    return company !== undefined ? [company] : this.redis.smembers(keys.usageCompanies());
  }

  async queryLogs(query: LogQuery): Promise<UsageRecord[]> {
    const limit = query.limit ?? 100;
    const out: UsageRecord[] = [];
    for (const company of await this.companiesFor(query.company)) {
      let end = '+';
      let scanned = 0;
      let found = 0;
      scan: while (scanned < LOG_SCAN_LIMIT && found < limit) {
        const batch = (await this.redis.xrevrange(keys.usageStream(company), end, '-', 'COUNT', 500)) as Array<[string, string[]]>;
        if (batch.length === 0) break;
        for (const [id, fields] of batch) {
          scanned++;
          end = `(${id}`;
          const record = JSON.parse(fields[1] as string) as UsageRecord;
          if (query.since !== undefined && record.time < query.since) {
            // Records are written when requests end; a little slack keeps long requests that started earlier.
            if (Number(id.split('-')[0]) < Date.parse(query.since)) break scan;
            continue;
          }
          if (query.address !== undefined && record.address !== query.address) continue;
          if (query.model !== undefined && !sameModel(record, query.model)) continue;
          out.push(record);
          if (++found >= limit) break scan;
        }
      }
    }
    out.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
    return out.slice(0, limit);
  }

  /** Totals from the per-day aggregates; `since` counts whole days (UTC), as the aggregates do. */
  async queryUsage(query: UsageQuery): Promise<UsageTotals[]> {
    const sinceDay = query.since?.slice(0, 10);
    const groups = new Map<string | null, UsageTotals>();
    for (const company of await this.companiesFor(query.company)) {
      const days = (await this.redis.smembers(keys.aggregateDays(company))).filter((d) => sinceDay === undefined || d >= sinceDay);
      for (const day of days) {
        const hash = await this.redis.hgetall(keys.aggregate(company, day, query.groupBy));
        for (const [field, value] of Object.entries(hash)) {
          const bar = field.lastIndexOf('|');
          const raw = field.slice(0, bar);
          const key = raw === '' ? null : raw;
          let totals = groups.get(key);
          if (!totals) groups.set(key, (totals = emptyTotals(key)));
          const n = Number(value);
          switch (field.slice(bar + 1)) {
            case 'requests':
              totals.requests += n;
              break;
            case 'input_tokens':
              totals.input_tokens += n;
              break;
            case 'output_tokens':
              totals.output_tokens += n;
              break;
            case 'cache_creation_input_tokens':
              totals.cache_creation_input_tokens += n;
              break;
            case 'cache_read_input_tokens':
              totals.cache_read_input_tokens += n;
              break;
            case 'cost_micros':
              totals.cost_usd = Math.round((totals.cost_usd + n / 1e6) * 1e6) / 1e6;
              break;
          }
        }
      }
    }
    return [...groups.values()].sort((a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests);
  }

  /**
   * One fenced script writes the company's own keys (they share a Cluster
   * slot); the token keys stand alone, so each is its own small script, all
   * sent at once (one round trip for the lot, not one per token).
   */
  async replaceCompany(records: CompanyRecords, fence?: WriteFence): Promise<void> {
    const c = records.company;
    const epoch = fence?.epoch ?? -1;
    const creds = records.credentials;
    const keyArgs = [keys.fence(c), keys.records(c), keys.tokenSet(c), ...creds.map((x) => keys.fingerprint(c, x.name)), ...creds.map((x) => keys.health(c, x.name))];
    const fingerprints = creds.map((x) => createHash('sha256').update(x.secret).digest('hex').slice(0, 32));
    const result = (await this.run.replace(keyArgs.length, ...keyArgs, epoch, encodeCompany(records, this.box), creds.length, ...fingerprints, ...records.tokens.map((t) => t.hash))) as string[];
    if (result[0] === 'fenced') throw new FencedWrite(epoch, Number(result[1]));
    // Listed before its tokens go live: whoever sees a token can find its company among the companies.
    await this.redis.sadd(keys.companies(), c);
    const tokenEpoch = Math.max(epoch, 0);
    const [dropped, claims] = await Promise.all([
      Promise.all(result.slice(1).map((hash) => this.run.drop(1, keys.token(hash), c, tokenEpoch))),
      // Never take over a hash another company holds, nor one that was revoked.
      Promise.all(records.tokens.map((t) => this.run.claim(1, keys.token(t.hash), JSON.stringify({ ...t, epoch: tokenEpoch }), c, tokenEpoch))),
    ]);
    // A negative answer -(E + 1): a writer of epoch E wrote that token; this one is stale.
    const newest = Math.max(-1, ...[...dropped, ...claims].map((r) => (Number(r) < 0 ? -Number(r) - 1 : -1)));
    const claimed = records.tokens.filter((_, i) => claims[i] === 1).map((t) => t.hash);
    if (claimed.length > 0) await this.redis.sadd(keys.tokenSet(c), ...claimed);
    await this.redis.publish(keys.invalidations(), c);
    if (newest >= 0) throw new FencedWrite(tokenEpoch, newest);
  }

  async removeCompany(company: string, fence?: WriteFence): Promise<void> {
    const epoch = fence?.epoch ?? -1;
    const runtime: string[] = [];
    const raw = await this.redis.get(keys.records(company));
    if (raw !== null) {
      // What belonged to the company at run time goes with it; usage history and spend counters expire on their own.
      const stored = JSON.parse(raw) as { credentials?: Array<{ name: string }> };
      for (const credential of stored.credentials ?? []) runtime.push(keys.fingerprint(company, credential.name), keys.health(company, credential.name), keys.leases(company, credential.name));
    }
    const keyArgs = [keys.fence(company), keys.records(company), keys.tokenSet(company), ...runtime];
    const result = (await this.run.remove(keyArgs.length, ...keyArgs, epoch)) as string[];
    if (result[0] === 'fenced') throw new FencedWrite(epoch, Number(result[1]));
    await Promise.all(result.slice(1).map((hash) => this.run.drop(1, keys.token(hash), company, Math.max(epoch, 0))));
    // Sticky choices and caller slots serve only requests of live tokens, which are gone now; the
    // fingerprints, health and leases of credentials the company dropped before it went (the stored
    // records name only the last ones) go too. Spend counters stay until their window ends (their own
    // expiry): a company deleted and created again in the same window must not start its caps from zero.
    for (const pattern of [keys.sticky(company, '*'), keys.slots(company, '*'), keys.fingerprint(company, '*'), keys.health(company, '*'), keys.leases(company, '*')]) {
      const found = await this.scanKeys(pattern);
      for (let i = 0; i < found.length; i += 500) await this.redis.del(...found.slice(i, i + 500));
    }
    await this.redis.srem(keys.companies(), company);
    await this.redis.publish(keys.invalidations(), company);
    this.parsed.delete(company);
  }

  /** Every key matching `pattern` (no glob characters but the trailing *); a Cluster is scanned master by master. */
  private async scanKeys(pattern: string): Promise<string[]> {
    const nodes: Redis[] = this.redis instanceof Cluster ? this.redis.nodes('master') : [this.redis];
    const found: string[] = [];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        found.push(...batch);
      } while (cursor !== '0');
    }
    return found;
  }

  async revokeTokens(revoked: readonly RevokedToken[]): Promise<void> {
    // Unconditional and idempotent: a tombstone only ever replaces a live record, never the other way round.
    await Promise.all(revoked.map((r) => this.redis.set(keys.token(r.hash), JSON.stringify({ hash: r.hash, company: r.company, name: r.name, revoked: true }))));
  }

  async loaded(): Promise<boolean> {
    return (await this.redis.exists(keys.generation())) === 1;
  }

  async generation(): Promise<string | null> {
    return this.redis.get(keys.generation());
  }

  async markLoaded(generation: string): Promise<void> {
    await this.redis.set(keys.generation(), generation);
  }

  async listCompanies(): Promise<string[]> {
    return this.redis.smembers(keys.companies());
  }

  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.buffer.length > 0 && this.redis.status === 'ready') await this.flush();
    this.redis.disconnect();
  }
}
