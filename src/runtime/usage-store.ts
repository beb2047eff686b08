import type { UsageStoreConfig } from '../config/usage-config.js';
import type { Logger } from '../observability/logger.js';
import { UsageExporter, type ExportObserver } from '../usage/export/exporter.js';
import type { ExportLease, UsageSource } from '../usage/export/ports.js';
import type { PgUsageStore } from '../usage/postgres/pg-usage-store.js';

export interface DurableUsage {
  readonly store: PgUsageStore;
  /** Null when this process only reads. */
  readonly exporter: UsageExporter | null;
  /** Stops the exporter (draining for up to `drainMs`), then closes the pool. */
  close(drainMs?: number): Promise<void>;
}

/**
 * PostgreSQL for Usage and Logs: the reader, and (given a source) the
 * exporter that fills it. pg is loaded only when a URL is configured: one
 * machine without a database never pays for it.
 */
export interface ExportFrom {
  readonly source: UsageSource;
  readonly lease: ExportLease;
  readonly observer: ExportObserver;
  /** Told how many schema migrations the exporter applied at start (only when some were). */
  readonly migrated: (applied: number) => void;
}

export async function openDurableUsage(config: UsageStoreConfig, exportFrom: ExportFrom | null): Promise<DurableUsage | null> {
  if (config.postgresUrl === null) return null;
  const [{ connectPostgres }, { PgUsageStore }, { migrate }] = await Promise.all([
    import('../usage/postgres/connect.js'),
    import('../usage/postgres/pg-usage-store.js'),
    import('../usage/postgres/migrations.js'),
  ]);
  const pool = connectPostgres(config.postgresUrl, { password: config.postgresPassword });
  const store = new PgUsageStore(pool);
  let exporter: UsageExporter | null = null;
  if (exportFrom) {
    exporter = new UsageExporter(
      exportFrom.source,
      {
        prepare: async () => {
          const applied = await migrate(pool);
          if (applied > 0) exportFrom.migrated(applied);
        },
        insert: (records, texts) => store.insert(records, texts),
        refusal: (error) => store.refusal(error),
        saveTimeZones: (zones) => store.saveTimeZones(zones),
        deleteOlderThan: (days) => store.deleteOlderThan(days),
      },
      exportFrom.lease,
      exportFrom.observer,
      { retentionDays: config.retentionDays, leaseRenewMs: Math.max(100, Math.floor(config.exportLeaseMs / 3)) },
    );
    exporter.start();
  }
  return {
    store,
    exporter,
    async close(drainMs?: number) {
      await exporter?.stop(drainMs);
      await store.close();
    },
  };
}

/** The usual log line when the exporter upgraded the schema. */
export function logMigrations(logger: Logger): (applied: number) => void {
  return (applied) => logger.info({ applied }, 'usage schema migrated');
}
