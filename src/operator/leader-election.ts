/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go does it:
 * the leader renews the Lease every retry period; another replica takes it
 * over only after seeing the same Lease record unchanged for a whole lease
 * duration by its own clock (so clocks need not agree, only tick at the same
 * rate). The leader gives up when it could not renew within the renew
 * deadline, which is shorter than the lease duration, so it has stopped
 * writing before anyone else may start. Only the leader writes to Redis and
 * to status; the others watch and keep their caches warm.
 */
export interface LeaseRecord {
  readonly holderIdentity: string | null;
  readonly leaseDurationSeconds: number;
  /** Epoch ms. */
  readonly acquireTime: number | null;
  readonly renewTime: number | null;
  readonly leaseTransitions: number;
}

export interface StoredLease {
  readonly record: LeaseRecord;
  /** Opaque version for optimistic concurrency (the resourceVersion). */
  readonly version: string;
}

/** Someone else wrote the Lease between our read and our write. */
export class LeaseConflict extends Error {}

export interface LeaseStore {
  get(): Promise<StoredLease | null>;
  /** Throws LeaseConflict when the Lease exists already. */
  create(record: LeaseRecord): Promise<StoredLease>;
  /** Throws LeaseConflict when the Lease is no longer at `version`. */
  update(record: LeaseRecord, version: string): Promise<StoredLease>;
}

export interface Clock {
  now(): number;
}

export interface ElectionTiming {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** client-go's proportions (15 s / 10 s / 2 s) for any lease duration. */
export function electionTiming(leaseDurationSeconds: number): ElectionTiming {
  const leaseDurationMs = leaseDurationSeconds * 1000;
  return { leaseDurationMs, renewDeadlineMs: Math.round((leaseDurationMs * 2) / 3), retryPeriodMs: Math.max(100, Math.round((leaseDurationMs * 2) / 15)) };
}

export type AttemptResult = 'held' | 'other' | 'failed';

export interface ElectorCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
  onError?(error: unknown): void;
}

export class LeaderElector {
  /** The Lease record as last read or written, and when (by our clock) it last changed. */
  private observed: { record: LeaseRecord; version: string; at: number } | null = null;
  private leading = false;
  private lastRenew = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: LeaseStore,
    readonly identity: string,
    private readonly timing: ElectionTiming,
    private readonly clock: Clock,
    private readonly callbacks: ElectorCallbacks,
  ) {}

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * The leadership epoch: the Lease's transition count of the term this
   * replica holds. Every new holder raises it, so a replica that was paused
   * through a takeover carries an older epoch than the one that took over,
   * and Redis refuses its writes. (Deleting the Lease restarts the count:
   * see raiseEpoch.)
   */
  epoch(): number {
    return this.observed?.record.leaseTransitions ?? 0;
  }

  /**
   * Raise this term's epoch above `fence` (an epoch Redis holds): the Lease's
   * transition count restarts at 0 when someone deletes the Lease, and the
   * leader would then stay fenced out until the count passed the old value.
   * Only the holder can do it, by an update at the version it holds (a
   * replica that lost the Lease gets a conflict and stays fenced). True when
   * the epoch is now above `fence`.
   */
  async raiseEpoch(fence: number): Promise<boolean> {
    await this.running;
    const held = this.observed;
    if (!this.leading || this.stopped || !held || held.record.holderIdentity !== this.identity) return false;
    if (held.record.leaseTransitions > fence) return true;
    const now = this.clock.now();
    try {
      const updated = await this.store.update({ ...held.record, renewTime: now, leaseTransitions: fence + 1 }, held.version);
      this.observed = { record: updated.record, version: updated.version, at: now };
      this.lastRenew = now;
      return true;
    } catch (error) {
      if (error instanceof LeaseConflict) return false;
      throw error;
    }
  }

  /** Who holds the Lease, as last seen. */
  observedHolder(): string | null {
    return this.observed?.record.holderIdentity ?? null;
  }

  /** One attempt to acquire or renew: `held` (ours now), `other` (someone else holds a valid lease) or `failed`. */
  async tryAcquireOrRenew(): Promise<AttemptResult> {
    const now = this.clock.now();
    const leaseDurationSeconds = this.timing.leaseDurationMs / 1000;
    const current = await this.store.get();
    if (!current) {
      try {
        const created = await this.store.create({ holderIdentity: this.identity, leaseDurationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 });
        this.observed = { record: created.record, version: created.version, at: now };
        return 'held';
      } catch (error) {
        if (error instanceof LeaseConflict) return 'failed';
        throw error;
      }
    }
    if (!this.observed || this.observed.version !== current.version) this.observed = { record: current.record, version: current.version, at: now };
    const holder = current.record.holderIdentity;
    const expired = this.observed.at + current.record.leaseDurationSeconds * 1000 <= now;
    if (holder && holder !== this.identity && !expired) return 'other';
    const mine = holder === this.identity;
    const next: LeaseRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds,
      acquireTime: mine ? current.record.acquireTime : now,
      renewTime: now,
      leaseTransitions: mine ? current.record.leaseTransitions : current.record.leaseTransitions + 1,
    };
    try {
      const updated = await this.store.update(next, current.version);
      this.observed = { record: updated.record, version: updated.version, at: now };
      return 'held';
    } catch (error) {
      if (error instanceof LeaseConflict) return 'failed';
      throw error;
    }
  }

  /** One round of the election loop: try, then decide whether this replica leads. */
  async step(): Promise<void> {
    const started = this.clock.now();
    let result: AttemptResult = 'failed';
    try {
      result = await this.tryAcquireOrRenew();
    } catch (error) {
      this.callbacks.onError?.(error);
    }
    if (this.stopped) return;
    if (result === 'held') {
      // Count from before the request: the Lease says we renewed at `started`.
      this.lastRenew = started;
      if (!this.leading) {
        this.leading = true;
        this.callbacks.onStartedLeading();
      }
      return;
    }
    if (!this.leading) return;
    if (result === 'other' || this.clock.now() - this.lastRenew >= this.timing.renewDeadlineMs) {
      this.leading = false;
      this.callbacks.onStoppedLeading();
    }
  }

  /** Run the loop until stop(). */
  start(): void {
    const loop = async (): Promise<void> => {
      if (this.stopped) return;
      this.running = this.step();
      await this.running;
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.timing.retryPeriodMs);
    };
    void loop();
  }

  /**
   * Stop, and hand the Lease back when we hold it so a follower takes over
   * at its next retry instead of waiting out the lease duration.
   */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    if (!this.leading) return;
    this.leading = false;
    this.callbacks.onStoppedLeading();
    if (!release || !this.observed || this.observed.record.holderIdentity !== this.identity) return;
    const now = this.clock.now();
    try {
      await this.store.update({ holderIdentity: null, leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: this.observed.record.leaseTransitions }, this.observed.version);
    } catch (error) {
      // Someone renewed or took it meanwhile: nothing of ours to give back.
      if (!(error instanceof LeaseConflict)) this.callbacks.onError?.(error);
    }
  }
}
