/**
 * A keyed work queue in the manner of client-go's: a key waits at most once
 * (adding it again while it waits changes nothing), one key is never handled
 * by two workers at once (a key added while it is being handled runs again
 * right after), and a failed key comes back after an exponential backoff.
 * The operator's keys are namespaces, so each company is reconciled by one
 * worker at a time while different companies proceed in parallel.
 */
export interface WorkQueueOptions {
  readonly workers: number;
  /** First retry delay; doubled per consecutive failure of the same key. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly timers?: Timers;
  /** Called when a key failed and was scheduled again (for logs and metrics). */
  readonly onRetry?: (key: string, error: unknown, attempt: number, delayMs: number) => void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export type Handler = (key: string) => Promise<void>;

export class WorkQueue {
  private readonly pending: string[] = [];
  private readonly pendingSet = new Set<string>();
  private readonly active = new Set<string>();
  /** Keys added while they were being handled: they go back into the queue when the handler returns. */
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, unknown>();
  private readonly idleWaiters: Array<() => void> = [];
  private running = 0;
  private stopped = false;
  private readonly timers: Timers;

  constructor(
    private readonly handler: Handler,
    private readonly options: WorkQueueOptions,
  ) {
    this.timers = options.timers ?? realTimers;
  }

  /** Queue a key now (a delayed retry of it is superseded). */
  add(key: string): void {
    if (this.stopped) return;
    const timer = this.delayed.get(key);
    if (timer !== undefined) {
      this.timers.clearTimeout(timer);
      this.delayed.delete(key);
    }
    if (this.active.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.pendingSet.has(key)) return;
    this.pendingSet.add(key);
    this.pending.push(key);
    this.pump();
  }

  /** Queue a key after a delay, unless it is added sooner. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (this.delayed.has(key) || this.pendingSet.has(key)) return;
    const timer = this.timers.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, timer);
  }

  /** Keys waiting or being handled now. */
  depth(): number {
    return this.pendingSet.size + this.active.size + this.delayed.size;
  }

  /** Consecutive failures of a key (0 after a success). */
  failuresOf(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Resolves when nothing is pending or running (delayed retries do not count). */
  idle(): Promise<void> {
    if (this.pending.length === 0 && this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stop taking work; handlers already running finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.delayed.values()) this.timers.clearTimeout(timer);
    this.delayed.clear();
    this.pending.length = 0;
    this.pendingSet.clear();
    this.dirty.clear();
    await this.idle();
  }

  private pump(): void {
    while (!this.stopped && this.running < this.options.workers) {
      const index = this.pending.findIndex((k) => !this.active.has(k));
      if (index === -1) break;
      const [key] = this.pending.splice(index, 1) as [string];
      this.pendingSet.delete(key);
      this.active.add(key);
      this.running++;
      void this.process(key);
    }
    if (this.pending.length === 0 && this.running === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async process(key: string): Promise<void> {
    let failed = false;
    let failure: unknown;
    try {
      await this.handler(key);
    } catch (error) {
      failed = true;
      failure = error;
    }
    this.active.delete(key);
    this.running--;
    if (failed) {
      const attempt = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, attempt);
      const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (attempt - 1));
      this.options.onRetry?.(key, failure, attempt, delay);
      if (this.dirty.delete(key)) {
        // Something changed meanwhile: the new state deserves a try now, not after the backoff.
        this.add(key);
      } else {
        this.addAfter(key, delay);
      }
    } else {
      this.failures.delete(key);
      if (this.dirty.delete(key)) this.add(key);
    }
    this.pump();
  }
}
