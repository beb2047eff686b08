import type { UsageStoreConfig } from '../config/usage-config.js';
import type { ExportObserver } from '../usage/export/exporter.js';

/** What the exporter thread is started with: plain data, copied into the thread. */
export interface ExportWorkerData {
  readonly usage: UsageStoreConfig;
  readonly redisUrl: string;
  readonly redisTlsCa: string | null;
  readonly redisPassword: string | null;
}

export type ExportStage = Parameters<ExportObserver['failed']>[0];

/** From the exporter thread to the main thread: what the metrics and the log need, nothing else. */
export type FromExportWorker =
  | { readonly type: 'started' }
  | { readonly type: 'exported'; readonly count: number; readonly stored: number }
  | { readonly type: 'deadLettered'; readonly company: string; readonly requestId: string | null; readonly reason: string }
  | { readonly type: 'backlog'; readonly count: number }
  | { readonly type: 'active'; readonly active: boolean }
  | { readonly type: 'failed'; readonly stage: ExportStage; readonly detail: string }
  | { readonly type: 'log'; readonly level: 'info' | 'error'; readonly msg: string; readonly detail: string }
  | { readonly type: 'stopped' };

export type ToExportWorker = { readonly type: 'stop'; readonly drainMs: number };
