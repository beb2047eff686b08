import { Counter, Gauge, type Registry } from 'prom-client';
import type { ExportObserver } from '../usage/export/exporter.js';
import type { Logger } from './logger.js';

/** Where usage records go: dropped ones counted (never silent), and the exporter's progress and backlog. */
export class UsageMetrics {
  readonly dropped: Counter<'company' | 'reason'>;
  readonly exported: Counter;
  readonly stored: Counter;
  readonly backlog: Gauge;
  readonly active: Gauge;
  readonly errors: Counter<'stage'>;
  readonly deadLetters: Counter<'company'>;
  readonly lastExport: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.dropped = new Counter({
      name: 'gw_usage_records_dropped_total',
      help: 'Usage records given up, by reason: memory_bound (oldest past GW_USAGE_MEMORY_MB), retry_buffer (Redis away or backlog full too long).',
      labelNames: ['company', 'reason'] as const,
      registers,
    });
    this.exported = new Counter({ name: 'gw_usage_exported_total', help: 'Usage records committed to PostgreSQL by the exporter (including re-deliveries).', registers });
    this.stored = new Counter({ name: 'gw_usage_stored_total', help: 'Usage records that were new to PostgreSQL (re-deliveries are skipped by request id).', registers });
    this.backlog = new Gauge({ name: 'gw_usage_export_backlog', help: 'Usage records waiting for export (Redis streams or this process).', registers });
    this.active = new Gauge({ name: 'gw_usage_exporter_active', help: '1 while this process holds the exporter lease.', registers });
    this.errors = new Counter({
      name: 'gw_usage_export_errors_total',
      help: 'Exporter failures by stage (prepare, read, write, ack, lease, retention; worker: the exporter thread of gw serve died).',
      labelNames: ['stage'] as const,
      registers,
    });
    this.deadLetters = new Counter({
      name: 'gw_usage_export_dead_letter_total',
      help: 'Usage records the exporter set aside because they can never be stored (malformed, or refused by PostgreSQL for their content); see docs/usage-store.md.',
      labelNames: ['company'] as const,
      registers,
    });
    this.lastExport = new Gauge({ name: 'gw_usage_export_last_success_seconds', help: 'Unix time of the last committed export batch.', registers });
  }

  /** The exporter's observer: metrics, and a log line per kind of failure at most every 10 s. */
  observer(logger: Logger): ExportObserver {
    const lastLogged = new Map<string, number>();
    return {
      exported: (count, stored) => {
        this.exported.inc(count);
        this.stored.inc(stored);
        this.lastExport.set(Date.now() / 1000);
      },
      // Each one is logged: they are rare (a record that cannot be stored is a bug or tampering), and the id is what an operator looks for.
      deadLettered: (company, requestId, reason) => {
        this.deadLetters.inc({ company });
        logger.error({ company, request_id: requestId, reason }, 'usage record set aside (dead letter): it can never be stored');
      },
      backlog: (count) => this.backlog.set(count),
      active: (active) => {
        this.active.set(active ? 1 : 0);
        logger.info({ active }, active ? 'usage exporter active (holds the lease)' : 'usage exporter standing by');
      },
      failed: (stage, error) => {
        this.errors.inc({ stage });
        const now = Date.now();
        if (now - (lastLogged.get(stage) ?? 0) < 10_000) return;
        lastLogged.set(stage, now);
        logger.warn({ stage, detail: error instanceof Error ? error.message : String(error) }, 'usage export failed; retrying (records wait at the source)');
      },
    };
  }
}
