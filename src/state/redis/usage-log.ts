import type { UsageRecord } from '../../metering/usage-record.js';
import { USAGE_GROUPS, emptyTotals, sameModel, type LogQuery, type UsageQuery, type UsageTotals } from '../queries.js';
import type { SpendSettlement, UsageLog, UsageRecorder } from '../state.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import { defineScripts, type ScriptRunners } from './script-runners.js';
import { counterExpiry } from './spend-ledger.js';
import { UsageConfirmer, type HeldUsage, type UsageConfirmEvents, type UsageConfirmOptions } from './usage-confirm.js';
import { EXPORTED_MARKER_TTL_MS } from './usage-stream-source.js';

const USAGE_ID_TTL_MS = 24 * 60 * 60 * 1000;
const STREAM_MAX = 100_000;
const AGGREGATE_RETENTION_MS = 400 * 24 * 60 * 60 * 1000;
const MAX_BUFFERED_RECORDS = 50_000;
/** Records one company's stream may hold unexported while PostgreSQL is away (docs/usage-store.md). */
export const DEFAULT_USAGE_BACKLOG_MAX = 1_000_000;
const LOG_SCAN_LIMIT = 100_000;

export interface RedisUsageOptions {
  /** Called when buffered usage records could not be written and are kept for a retry. */
  /** `reason` is why the record could not be written (the first line of the error), absent when the buffer emptied. */
  readonly onBuffered?: (count: number, reason?: string) => void;
  /** Called for each record given up because the retry buffer was full (oldest first). */
  readonly onDropped?: (record: UsageRecord) => void;
  /** Per-company stream bound while an exporter moves records to PostgreSQL. */
  readonly usageBacklogMax?: number;
  /**
   * Hold each record until this many replicas hold it (usage-confirm.ts), over
   * `connection`, which carries nothing but usage records so that a WAIT never
   * holds up a token lookup. Without it, a record counts once the primary took it.
   */
  readonly confirm?: { readonly options: UsageConfirmOptions; readonly connection: RedisClient; readonly events?: UsageConfirmEvents };
  /**
   * A settlement pushed a spend counter further past its limit, by `micros`: a request's metered cost beyond its
   * reservation, or spend a failover had lost, restored after the promoted node admitted requests without it.
   */
  readonly onSpendOvershoot?: (company: string, micros: number, requestId: string) => void;
}

/** Redis refused a record: the company's stream holds as many unexported records as allowed. */
export class UsageBacklogFull extends Error {}

/**
 * Usage records in a stream per company (which the exporter drains), with
 * per-day aggregates beside it for the totals. A record Redis cannot take
 * is kept in this process and retried.
 */
export class RedisUsageLog implements UsageRecorder, UsageLog {
  private readonly buffer: HeldUsage[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly knownUsageCompanies = new Set<string>();
  private readonly droppedByCompany = new Map<string, number>();
  private readonly writer: { readonly redis: RedisClient; readonly run: ScriptRunners };
  private readonly confirmer: UsageConfirmer | null;

  constructor(
    private readonly redis: RedisClient,
    run: ScriptRunners,
    private readonly options: RedisUsageOptions,
  ) {
    const confirm = options.confirm;
    this.writer = confirm ? { redis: confirm.connection, run: defineScripts(confirm.connection) } : { redis, run };
    this.confirmer = confirm && confirm.options.replicas > 0 ? new UsageConfirmer(confirm.options, (c, records, n, t, rewrite) => this.confirmRound(c, records, n, t, rewrite), confirm.events) : null;
    if (this.confirmer) {
      const moved = (): void => this.confirmer?.connectionMoved();
      // Any reconnect, of the connection or of one Cluster node's: WAIT there no longer covers what was written before.
      this.writer.redis.on('reconnecting', moved);
      this.writer.redis.on('-node', moved);
    }
  }

  /** Records written but not yet known to be on a replica (0 without confirmation). */
  heldRecords(): number {
    return this.confirmer?.heldRecords() ?? 0;
  }

  /** A failover was seen: restore and confirm what is held now rather than at the next round. */
  expediteConfirmation(): void {
    this.confirmer?.expedite();
  }

  /** Runs every confirmation round now (tests, shutdown). */
  async confirmNow(): Promise<void> {
    await this.confirmer?.runDue(true);
  }

  async recordUsage(record: UsageRecord, spend?: SpendSettlement): Promise<void> {
    const held: HeldUsage = { record, spend };
    try {
      await this.writeUsage(held);
    } catch (error) {
      this.keepForRetry(held, error);
    }
  }

  private keepForRetry(held: HeldUsage, error: unknown): void {
    // Kept and retried: a Redis restart must not lose usage. Bounded so an outage cannot exhaust memory.
    if (this.buffer.length >= MAX_BUFFERED_RECORDS) {
      const dropped = (this.buffer.shift() as HeldUsage).record;
      this.droppedByCompany.set(dropped.company, (this.droppedByCompany.get(dropped.company) ?? 0) + 1);
      this.options.onDropped?.(dropped);
    }
    this.buffer.push(held);
    this.options.onBuffered?.(this.buffer.length, error instanceof Error ? error.message.split('\n')[0] : String(error));
    this.scheduleFlush();
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
      const held = this.buffer[0] as HeldUsage;
      try {
        await this.writeUsage(held);
      } catch {
        this.scheduleFlush();
        return;
      }
      this.buffer.shift();
    }
    this.options.onBuffered?.(0);
  }

  /** Stops the retry timer and writes what is buffered if Redis is there to take it. */
  async close(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.buffer.length > 0 && this.redis.status === 'ready') await this.flush();
    // Bounded: a shutdown waits at most this long for replicas before letting the held records go.
    await this.confirmer?.drain(2_000);
  }

  private async writeUsage(held: HeldUsage): Promise<void> {
    const record = held.record;
    await this.knowCompany(record.company);
    const written = this.outcomeOf(held, await this.writer.run.usage(...this.usageArgs(held)));
    if (written === -1) throw new UsageBacklogFull(`the usage stream of ${record.company} is full until the exporter catches up`);
    this.confirmer?.hold(record, held.spend);
  }

  /** The script's {status, overshoot}: reports an overshoot, returns the status (1 written, 0 already there, -1 refused). */
  private outcomeOf(held: HeldUsage, answer: unknown): number {
    const [status, overshoot] = (answer as [number, number]).map(Number) as [number, number];
    if (overshoot > 0) this.options.onSpendOvershoot?.(held.record.company, overshoot, held.record.request_id);
    return status;
  }

  private async knowCompany(c: string): Promise<void> {
    if (this.knownUsageCompanies.has(c)) return;
    // Exporters run here but none may have seen this company yet: mark its stream now, so not even
    // its first records can be trimmed before they are exported.
    if ((await this.redis.exists(keys.usageExportOn())) === 1) await this.redis.set(keys.usageExported(c), '1', 'PX', EXPORTED_MARKER_TTL_MS, 'NX');
    await this.redis.sadd(keys.usageCompanies(), c);
    this.knownUsageCompanies.add(c);
  }

  /**
   * One confirmation round for one company, in one pipeline to its node: the held records again
   * when asked (idempotent), then WAIT. Without a rewrite, a read of one of the company's keys
   * routes the WAIT to the company's node (Cluster sends a keyless command anywhere).
   */
  private async confirmRound(company: string, records: readonly HeldUsage[], replicas: number, timeoutMs: number, rewrite: boolean): Promise<{ restored: number; acknowledged: number }> {
    const pipeline = this.writer.redis.pipeline();
    const script = (pipeline as unknown as Record<string, (...args: Array<string | number>) => unknown>).gwRecordUsage as (...args: Array<string | number>) => unknown;
    const written = rewrite ? records : [];
    for (const record of written) script.call(pipeline, ...this.usageArgs(record));
    if (!rewrite) pipeline.exists(keys.usageStream(company));
    pipeline.call('WAIT', replicas, timeoutMs);
    const results = (await pipeline.exec()) ?? [];
    const waitAt = results.length - 1;
    let restored = 0;
    for (const [i, [error, value]] of results.slice(0, written.length).entries()) {
      if (error) throw error;
      const held = records[i] as HeldUsage;
      const status = this.outcomeOf(held, value);
      if (status === 1) restored++;
      // Lost by the failover and refused now (the stream is at its backlog cap): the retry buffer takes it over.
      if (status === -1) this.keepForRetry(held, new UsageBacklogFull(`the usage stream of ${company} is full until the exporter catches up`));
    }
    const [waitError, acknowledged] = results[waitAt] ?? [new Error('WAIT had no answer'), 0];
    if (waitError) throw waitError;
    if (restored > 0) {
      // The failover may have taken the company's entry in the usage companies too.
      this.knownUsageCompanies.delete(company);
      await this.knowCompany(company);
    }
    return { restored, acknowledged: Number(acknowledged) };
  }

  private usageArgs(held: HeldUsage): [number, ...Array<string | number>] {
    const { record, spend } = held;
    const c = record.company;
    const day = record.time.slice(0, 10);
    const aggKeys = USAGE_GROUPS.map((g) => keys.aggregate(c, day, g));
    const groupValues = USAGE_GROUPS.map((g) => {
      const v = record[g];
      return typeof v === 'string' ? v : '';
    });
    const settles = spend !== undefined && spend.checks.length > 0 ? spend : null;
    const spendKeys = settles ? [keys.spendReservation(c, record.request_id), ...settles.checks.map((check) => keys.spend(c, check.counter))] : [];
    const spendArgs = settles ? [Math.round(settles.actualMicros), ...settles.checks.flatMap((check) => [check.limitMicros, counterExpiry(check)])] : [];
    return [
      4 + aggKeys.length + spendKeys.length,
      keys.usageId(c, record.request_id),
      keys.usageStream(c),
      keys.aggregateDays(c),
      ...aggKeys,
      keys.usageExported(c),
      ...spendKeys,
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
      ...spendArgs,
    ];
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
}
