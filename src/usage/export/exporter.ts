import type { UsageRecord } from '../../metering/usage-record.js';
import { PartlyInserted, type ExportBatch, type ExportLease, type Refused, type UsageSink, type UsageSource } from './ports.js';

export interface ExportObserver {
  exported(count: number, stored: number): void;
  /** A record set aside because it can never be stored (its reason names no content). */
  deadLettered(company: string, requestId: string | null, reason: string): void;
  backlog(count: number): void;
  active(active: boolean): void;
  failed(stage: 'prepare' | 'read' | 'write' | 'ack' | 'lease' | 'retention', error: unknown): void;
}

export interface ExporterOptions {
  /** Records per PostgreSQL statement. */
  readonly batchSize?: number;
  /** How long to wait when nothing is waiting. */
  readonly idleMs?: number;
  /** Between tries for a lease another holder has. */
  readonly leaseRetryMs?: number;
  readonly leaseRenewMs?: number;
  /** 0 keeps records for ever. */
  readonly retentionDays?: number;
  readonly maxBackoffMs?: number;
}

const TIME_ZONE_REFRESH_MS = 60_000;
const RETENTION_EVERY_MS = 60 * 60_000;
const BACKLOG_EVERY_MS = 1_000;

/**
 * Moves usage records from where the data plane leaves them into the
 * durable store: read a batch, commit it, and only then acknowledge it at
 * the source. A crash between commit and acknowledgement re-delivers the
 * batch, which the store skips by request id; a store that is down keeps
 * the batch in hand and retries with backoff while the source holds the
 * rest. One exporter works at a time, by lease.
 */
export class UsageExporter {
  private stopped = false;
  private held = false;
  private prepared = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private readonly zonesSaved = new Map<string, number>();
  private lastRetention = 0;
  private lastBacklog = 0;
  private readonly batchSize: number;
  private readonly idleMs: number;
  private readonly leaseRetryMs: number;
  private readonly leaseRenewMs: number;
  private readonly retentionDays: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly source: UsageSource,
    private readonly sink: UsageSink,
    private readonly lease: ExportLease,
    private readonly observer: ExportObserver,
    options: ExporterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 2_000;
    this.idleMs = options.idleMs ?? 200;
    this.leaseRetryMs = options.leaseRetryMs ?? 2_000;
    this.leaseRenewMs = options.leaseRenewMs ?? 5_000;
    this.retentionDays = options.retentionDays ?? 0;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Is this exporter the one working now? */
  isActive(): boolean {
    return this.held;
  }

  /**
   * Ends the loop after the batch in hand, then, while still the holder,
   * exports what waits for up to `drainMs` (a process's memory would
   * otherwise go with it); what is left waits at the source.
   */
  async stop(drainMs = 5_000): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    if (this.renewTimer) clearInterval(this.renewTimer);
    const deadline = Date.now() + drainMs;
    while (this.held && this.prepared && Date.now() < deadline) {
      try {
        const batch = await this.source.next(this.batchSize);
        if (batch === null) break;
        await this.saveZones(batch.records);
        const refused = await this.store(batch);
        await batch.ack(refused);
        this.reportSetAside(batch, refused);
      } catch (error) {
        this.observer.failed('write', error);
        break;
      }
    }
    if (this.held) await this.lease.release().catch(() => {});
    this.setHeld(false);
  }

  /** Ask the loop to look at the source now (a record was just written). */
  nudge(): void {
    this.wake?.();
  }

  private setHeld(held: boolean): void {
    if (held !== this.held) this.observer.active(held);
    this.held = held;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      this.wake = done;
      const self = this;
      function done(): void {
        clearTimeout(timer);
        if (self.wake === done) self.wake = null;
        resolve();
      }
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    let inHand: ExportBatch | null = null;
    const backoff = (): Promise<void> => this.sleep(Math.min(this.maxBackoffMs, 100 * 2 ** Math.min(failures++, 10)));
    while (!this.stopped) {
      if (!this.held) {
        inHand = null; // the next holder re-reads whatever was not acknowledged
        let got = false;
        try {
          got = await this.lease.acquire();
        } catch (error) {
          this.observer.failed('lease', error);
        }
        if (!got) {
          await this.sleep(this.leaseRetryMs);
          continue;
        }
        this.setHeld(true);
        this.renewTimer ??= setInterval(() => void this.renew(), this.leaseRenewMs);
        this.renewTimer.unref();
      }
      if (!this.prepared) {
        try {
          await this.sink.prepare();
          this.prepared = true;
        } catch (error) {
          this.observer.failed('prepare', error);
          await backoff();
          continue;
        }
      }
      await this.housekeeping();
      if (inHand === null) {
        try {
          inHand = await this.source.next(this.batchSize);
        } catch (error) {
          this.observer.failed('read', error);
          await backoff();
          continue;
        }
        if (inHand === null) {
          await this.sleep(this.idleMs);
          continue;
        }
      }
      let refused: Refused[];
      try {
        await this.saveZones(inHand.records);
        refused = await this.store(inHand);
      } catch (error) {
        this.observer.failed('write', error);
        await backoff();
        continue;
      }
      try {
        await inHand.ack(refused);
        this.reportSetAside(inHand, refused);
        inHand = null;
        failures = 0;
      } catch (error) {
        // Committed but not acknowledged: the retry inserts nothing new and acknowledges again.
        this.observer.failed('ack', error);
        await backoff();
      }
    }
  }

  /**
   * Commits the batch; returns the records the sink refused for their
   * content (found by halving the failing part until the refused rows stand
   * alone, so one bad row costs about 2·log2(batch) statements, and only in
   * the batch that holds it). Any other failure is thrown: the caller
   * retries the whole batch and sets nothing aside.
   */
  private async store(batch: ExportBatch): Promise<Refused[]> {
    const refused: Refused[] = [];
    await this.storeSplitting(
      batch,
      Array.from(batch.records, (_, i) => i),
      refused,
    );
    return refused;
  }

  private async storeSplitting(batch: ExportBatch, indexes: readonly number[], refused: Refused[]): Promise<void> {
    const records = indexes.map((i) => batch.records[i] as UsageRecord);
    const texts = batch.texts && indexes.map((i) => batch.texts?.[i] as string);
    try {
      this.observer.exported(records.length, await this.sink.insert(records, texts));
      return;
    } catch (error) {
      this.countCommitted(error);
      const reason = this.sink.refusal(error);
      if (reason === null) throw error;
      if (indexes.length === 1) {
        refused.push({ index: indexes[0] as number, reason });
        return;
      }
    }
    const half = Math.ceil(indexes.length / 2);
    await this.storeSplitting(batch, indexes.slice(0, half), refused);
    await this.storeSplitting(batch, indexes.slice(half), refused);
  }

  /** After the acknowledgement (so a retried batch is not counted twice): what was set aside. */
  private reportSetAside(batch: ExportBatch, refused: readonly Refused[]): void {
    for (const u of batch.unreadable ?? []) this.observer.deadLettered(u.company, u.requestId, u.reason);
    for (const { index, reason } of refused) {
      const r = batch.records[index];
      if (r) this.observer.deadLettered(r.company, r.request_id, reason);
    }
  }

  /** The parts of a failed batch that did commit: the retry skips them, so they are counted now. */
  private countCommitted(error: unknown): void {
    if (error instanceof PartlyInserted) this.observer.exported(error.committed, error.stored);
  }

  private async renew(): Promise<void> {
    if (!this.held || this.stopped) return;
    try {
      if (!(await this.lease.renew())) this.setHeld(false);
    } catch (error) {
      // Unknown whether we still hold it: step back; the lease expires and whoever gets it re-reads.
      this.observer.failed('lease', error);
      this.setHeld(false);
    }
  }

  private async housekeeping(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBacklog >= BACKLOG_EVERY_MS) {
      this.lastBacklog = now;
      try {
        this.observer.backlog(await this.source.backlog());
      } catch (error) {
        this.observer.failed('read', error);
      }
    }
    if (this.retentionDays > 0 && now - this.lastRetention >= RETENTION_EVERY_MS) {
      this.lastRetention = now;
      try {
        await this.sink.deleteOlderThan(this.retentionDays);
      } catch (error) {
        this.observer.failed('retention', error);
      }
    }
  }

  private async saveZones(records: readonly UsageRecord[]): Promise<void> {
    const now = Date.now();
    const due = new Set<string>();
    for (const r of records) if (now - (this.zonesSaved.get(r.company) ?? 0) >= TIME_ZONE_REFRESH_MS) due.add(r.company);
    if (due.size === 0) return;
    const zones = await this.source.timeZones([...due]);
    await this.sink.saveTimeZones(zones);
    for (const c of due) this.zonesSaved.set(c, now);
  }
}
