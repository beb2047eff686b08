import type { UsageRecord } from '../../metering/usage-record.js';
import type { SpendSettlement } from '../state.js';

/**
 * Replication is asynchronous: a record the primary acknowledged can be
 * missing on the replica that takes over. So a data plane keeps each record
 * it wrote until a replica is known to hold it, and proves that in rounds,
 * per company (one company's keys share one Cluster slot, so one node):
 * `WAIT replicas timeout` on the connection that wrote them (WAIT covers
 * every earlier write of that connection). Only when the replicas
 * acknowledged is the batch let go. Once that connection may have changed
 * node (a round failed, the connection reconnected, a failover was seen),
 * WAIT there proves nothing about the earlier writes, so the next rounds
 * first write the held records again (idempotent by request id: a no-op
 * where the record is present, a restore where a failover lost it) and
 * WAIT for those. The WAIT never delays a caller: records
 * are written after the answer ended, on a connection of their own.
 */
export interface UsageConfirmOptions {
  /** Replicas that must hold a record before it is let go (WAIT's numreplicas). */
  readonly replicas: number;
  /** WAIT's timeout per round. */
  readonly timeoutMs: number;
  /** A round per company this often while it holds records. */
  readonly intervalMs: number;
  /** After an unconfirmed round, the company's next round waits this long (a lagging or missing replica costs little). */
  readonly retryMs: number;
  /** Records held at most; beyond, the oldest are let go unconfirmed (counted). */
  readonly maxHeld: number;
  /** Records per round and company. */
  readonly batch: number;
}

export const DEFAULT_USAGE_CONFIRM: Omit<UsageConfirmOptions, 'replicas'> = { timeoutMs: 100, intervalMs: 100, retryMs: 500, maxHeld: 100_000, batch: 1_000 };

/** A record as written, with the spend it settles: written again after a move, it restores both or neither. */
export interface HeldUsage {
  readonly record: UsageRecord;
  readonly spend: SpendSettlement | undefined;
}

export interface ConfirmRound {
  /**
   * WAITs on the records' node, after writing `held` again when `rewrite`, in one pipeline.
   * Returns how many were written anew (lost and restored) and how many replicas acknowledged.
   */
  (company: string, held: readonly HeldUsage[], replicas: number, timeoutMs: number, rewrite: boolean): Promise<{ restored: number; acknowledged: number }>;
}

export interface UsageConfirmEvents {
  /** Records a failover had lost, written again. */
  readonly onRestored?: (company: string, count: number) => void;
  /** Records let go unconfirmed because too many were held. */
  readonly onReleased?: (record: UsageRecord) => void;
  /** A round failed (Redis away, a node failing over): kept for the next one. */
  readonly onRoundFailed?: (company: string, error: unknown) => void;
}

interface CompanyHeld {
  readonly records: Map<string, HeldUsage>;
  /** The next round may run from this time (ms). */
  nextRound: number;
  /** The connection may have moved since these were written: write them again before WAIT means anything. */
  rewrite: boolean;
}

export class UsageConfirmer {
  private readonly held = new Map<string, CompanyHeld>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** Counts connection moves; a round that saw one proves nothing (its WAIT may have been resent to another node). */
  private moves = 0;

  constructor(
    private readonly options: UsageConfirmOptions,
    private readonly round: ConfirmRound,
    private readonly events: UsageConfirmEvents = {},
    private readonly now: () => number = Date.now,
  ) {}

  /** A record the primary has acknowledged: held until a replica holds it too. */
  hold(record: UsageRecord, spend?: SpendSettlement): void {
    let company = this.held.get(record.company);
    if (!company) this.held.set(record.company, (company = { records: new Map(), nextRound: this.now() + this.options.intervalMs, rewrite: false }));
    if (company.records.has(record.request_id)) return;
    company.records.set(record.request_id, { record, spend });
    this.count++;
    if (this.count > this.options.maxHeld) this.releaseOldest();
    this.schedule();
  }

  /** Records not yet known to be on a replica. */
  heldRecords(): number {
    return this.count;
  }

  /** Runs the rounds that are due (one at a time); the timer calls it, tests and shutdown may too. */
  async runDue(force = false): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const [name, company] of [...this.held]) {
        if (!force && company.nextRound > this.now()) continue;
        const batch = [...company.records.values()].slice(0, this.options.batch);
        try {
          const rewrite = company.rewrite;
          const movesBefore = this.moves;
          const { restored, acknowledged } = await this.round(name, batch, this.options.replicas, this.options.timeoutMs, rewrite);
          if (restored > 0) this.events.onRestored?.(name, restored);
          if (this.moves !== movesBefore) {
            // The client resends unanswered commands after a reconnect: part of this round may have run on the
            // old node and its WAIT on the new one, which says nothing of the writes it did not see.
            company.rewrite = true;
            company.nextRound = this.now();
          } else if (acknowledged >= this.options.replicas) {
            for (const h of batch) if (company.records.delete(h.record.request_id)) this.count--;
            // Records held beyond this batch were written before the move too.
            company.rewrite = rewrite && company.records.size > 0;
            company.nextRound = this.now() + this.options.intervalMs;
          } else {
            company.nextRound = this.now() + this.options.retryMs;
          }
        } catch (error) {
          company.rewrite = true;
          company.nextRound = this.now() + this.options.retryMs;
          this.events.onRoundFailed?.(name, error);
        }
        if (company.records.size === 0) this.held.delete(name);
      }
    } finally {
      this.running = false;
    }
    this.schedule();
  }

  /** Every company's next round runs at once (a failover was seen: restore what it lost without waiting). */
  expedite(): void {
    this.connectionMoved();
    for (const company of this.held.values()) company.nextRound = 0;
    this.stop();
    this.schedule(0);
  }

  /** The writing connection reconnected or may point at another node: every held record is written again before it is confirmed. */
  connectionMoved(): void {
    this.moves++;
    for (const company of this.held.values()) company.rewrite = true;
  }

  /** Rounds until nothing is held or `deadlineMs` passes (shutdown: confirm what can be, then give up). */
  async drain(deadlineMs: number): Promise<void> {
    this.stop();
    const end = this.now() + deadlineMs;
    while (this.count > 0 && this.now() < end) {
      await this.runDue(true);
      if (this.count > 0) await new Promise((r) => setTimeout(r, Math.min(this.options.retryMs, 100)));
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delay = this.options.intervalMs): void {
    if (this.timer || this.held.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runDue();
    }, delay);
    this.timer.unref();
  }

  private releaseOldest(): void {
    // The company holding the most records gives up its oldest: one flooded company cannot push out the others.
    let largest: CompanyHeld | null = null;
    for (const company of this.held.values()) if (!largest || company.records.size > largest.records.size) largest = company;
    const oldest = largest?.records.keys().next();
    if (!largest || !oldest || oldest.done) return;
    const held = largest.records.get(oldest.value) as HeldUsage;
    largest.records.delete(oldest.value);
    this.count--;
    this.events.onReleased?.(held.record);
  }
}
