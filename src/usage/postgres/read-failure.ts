import { UsageStoreUnavailable } from '../report.js';

/** Socket-level failures of a connection to PostgreSQL (Node's error codes). */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * What a failed read of the usage store means for whoever asked. The store
 * may not exist yet (no exporter has run its migrations against this
 * database) or may be out of reach; both are conditions of the deployment
 * the reader can wait out, so they become UsageStoreUnavailable (a 503 at the
 * admin API) rather than an internal error. Anything else is passed on as it
 * is: a defect must not pass for an outage.
 */
export function readFailure(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    // undefined_table: the schema is created by the exporter at its start.
    if (code === '42P01') return new UsageStoreUnavailable('its tables do not exist yet: no usage exporter has started against this database');
    // connection_exception (08), insufficient_resources (53), admin/crash shutdown and cannot_connect_now (57P01–57P03).
    if (code.startsWith('08') || code.startsWith('53') || code === '57P01' || code === '57P02' || code === '57P03' || CONNECTION_CODES.has(code))
      return new UsageStoreUnavailable('PostgreSQL cannot be reached');
  }
  // pg's own words for a pool that could not connect in time or a connection that ended under a query.
  const message = error instanceof Error ? error.message : '';
  if (/timeout exceeded when trying to connect|Connection terminated/i.test(message)) return new UsageStoreUnavailable('PostgreSQL cannot be reached');
  return error;
}
