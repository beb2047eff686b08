// The main thread's side of the exporter thread (usage-export-worker.ts):
// starts it, turns its messages into the process's metrics and log lines,
// restarts it when it dies, and stops it cleanly on shutdown.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../observability/logger.js';
import type { UsageMetrics } from '../observability/usage-metrics.js';
import type { ExportObserver } from '../usage/export/exporter.js';
import type { ExportWorkerData, FromExportWorker, ToExportWorker } from './usage-export-messages.js';

export interface UsageExportThreadOptions {
  readonly data: ExportWorkerData;
  readonly metrics: UsageMetrics;
  readonly logger: Logger;
  /** First wait before a dead thread is started again; doubles up to `maxRestartDelayMs`. */
  readonly restartDelayMs?: number;
  readonly maxRestartDelayMs?: number;
  /** The compiled worker script (default: beside this module, or under dist/ when run from sources). */
  readonly workerUrl?: URL;
}

/** A thread that ran this long before dying starts the restart delays over. */
const HEALTHY_RUN_MS = 60_000;
/** After the drain, how long the thread gets to commit its batch in hand and let go of the lease. */
const STOP_GRACE_MS = 10_000;

function defaultWorkerUrl(): URL {
  const beside = new URL('./usage-export-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // Run from TypeScript sources (tests): the compiled worker lives in dist/.
  return new URL('../../dist/runtime/usage-export-worker.js', import.meta.url);
}

/**
 * A thread that dies (an uncaught error, out of memory) is logged, counted
 * as gw_usage_export_errors_total{stage="worker"} and started again after a
 * backoff; the data plane keeps serving meanwhile, because nothing it does
 * waits on the exporter: records wait in Redis, and the lease of the dead
 * thread expires for its successor (or another replica) to take over.
 */
export class UsageExportThread {
  private worker: Worker | null = null;
  private stopping = false;
  private active = false;
  private failures = 0;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private readonly observer: ExportObserver;
  private readonly workerUrl: URL;
  private readonly restartDelayMs: number;
  private readonly maxRestartDelayMs: number;

  constructor(private readonly options: UsageExportThreadOptions) {
    this.observer = options.metrics.observer(options.logger);
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
    this.restartDelayMs = options.restartDelayMs ?? 1_000;
    this.maxRestartDelayMs = options.maxRestartDelayMs ?? 30_000;
  }

  start(): void {
    if (this.worker !== null || this.stopping) return;
    this.startedAt = Date.now();
    const worker = new Worker(this.workerUrl, { workerData: this.options.data, name: 'usage-exporter' });
    this.worker = worker;
    worker.on('message', (message: FromExportWorker) => this.received(message));
    // Its death is counted once, at 'exit' (which follows an 'error').
    worker.on('error', (error) => {
      this.options.logger.error({ detail: error.message }, 'usage exporter thread failed');
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      this.setActive(false);
      if (this.stopping) return;
      if (Date.now() - this.startedAt >= HEALTHY_RUN_MS) this.failures = 0;
      const delay = Math.min(this.maxRestartDelayMs, this.restartDelayMs * 2 ** Math.min(this.failures++, 10));
      this.options.metrics.errors.inc({ stage: 'worker' });
      this.options.logger.error({ code, restartInMs: delay }, 'usage exporter thread exited; starting it again (records wait in Redis)');
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        this.start();
      }, delay);
      this.restartTimer.unref();
    });
  }

  /** Does the thread hold the exporter lease now? */
  isActive(): boolean {
    return this.active;
  }

  /** The running thread, if any (tests end it to see a death handled). */
  get thread(): Worker | null {
    return this.worker;
  }

  /**
   * Asks the thread to finish its batch, drain for up to `drainMs` and let
   * go of the lease; a thread that does not end within a grace period after
   * that is terminated (what it did not acknowledge waits in Redis).
   */
  async stop(drainMs = 5_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (worker === null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'stop', drainMs } satisfies ToExportWorker);
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([exited.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), drainMs + STOP_GRACE_MS)))]);
    clearTimeout(timer);
    if (late) {
      this.options.logger.warn('usage exporter thread did not stop in time; terminating it (unacknowledged records wait in Redis)');
      await worker.terminate();
    }
  }

  private received(message: FromExportWorker): void {
    switch (message.type) {
      case 'exported':
        this.observer.exported(message.count, message.stored);
        return;
      case 'deadLettered':
        this.observer.deadLettered(message.company, message.requestId, message.reason);
        return;
      case 'backlog':
        this.observer.backlog(message.count);
        return;
      case 'active':
        this.setActive(message.active);
        return;
      case 'failed':
        this.observer.failed(message.stage, new Error(message.detail));
        return;
      case 'log':
        if (message.level === 'error') this.options.logger.error({ detail: message.detail }, message.msg);
        else this.options.logger.info({ detail: message.detail }, message.msg);
        return;
      case 'stopped':
        // Its connections are closed; whatever handle might keep its loop alive does not matter now.
        if (this.stopping) void this.worker?.terminate();
        return;
      case 'started':
        return;
    }
  }

  private setActive(active: boolean): void {
    if (active === this.active) return;
    this.active = active;
    this.observer.active(active);
  }
}
