import type { UsageStoreConfig } from '../config/usage-config.js';
import type { Logger } from '../observability/logger.js';
import type { UsageMetrics } from '../observability/usage-metrics.js';
import { UsageExporter } from '../usage/export/exporter.js';
import type { ExportLease, UsageSource } from '../usage/export/ports.js';
import type { PgUsageStore } from '../usage/postgres/pg-usage-store.js';

export interface DurableUsage {
  readonly store: PgUsageStore;
  /** Null when this process only reads. */
  readonly exporter: UsageExporter | null;
  close(): Promise<void>;
}

/**
 * PostgreSQL for Usage and Logs: the reader, and (given a source) the
 * exporter that fills it. pg is loaded only when a URL is configured: one
 * machine without a database never pays for it.
 */
export async function openDurableUsage(config: UsageStoreConfig, exportFrom: { source: UsageSource; lease: ExportLease; metrics: UsageMetrics; logger: Logger } | null): Promise<DurableUsage | null> {
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
          if (applied > 0) exportFrom.logger.info({ applied }, 'usage schema migrated');
        },
        insert: (records) => store.insert(records),
        saveTimeZones: (zones) => store.saveTimeZones(zones),
        deleteOlderThan: (days) => store.deleteOlderThan(days),
      },
      exportFrom.lease,
      exportFrom.metrics.observer(exportFrom.logger),
      { retentionDays: config.retentionDays, leaseRenewMs: Math.max(100, Math.floor(config.exportLeaseMs / 3)) },
    );
    exporter.start();
  }
  return {
    store,
    exporter,
    async close() {
      await exporter?.stop();
      await store.close();
    },
  };
}
