import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { GatewayState } from '../state/state.js';
import { logsCsv, reportCsv } from '../usage/csv.js';
import { ADMIN_MESSAGES } from '../errors/messages.js';
import { readLogsQuery, readReportQuery, searchParamsSource } from '../usage/query-params.js';
import { UsageStoreUnavailable, type UsageReader } from '../usage/report.js';
import type { AdminAccess, AdminResource } from './admin-access.js';
import type { ConsoleServer } from './console/console-server.js';

export interface AdminServerOptions {
  /** Only asked whether it answers (readiness) and which kind it is. */
  readonly state: Pick<GatewayState, 'kind' | 'listCompanies'>;
  /** PostgreSQL when configured, else the state's own records. */
  readonly usage: UsageReader;
  readonly registry: Registry;
  /** Null disables the Usage and Logs API (metrics and health stay up). */
  readonly access: AdminAccess | null;
  /** False while starting or shutting down. */
  readonly ready: () => boolean;
  /** Where a request that failed is reported (the caller sees only the status and a fixed text). */
  readonly log: { error(fields: object, message: string): void };
  /** The owner console at /console/ (null when the admin API is disabled). */
  readonly console?: ConsoleServer | null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function text(res: ServerResponse, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const ERROR_TYPES: Readonly<Record<number, string>> = { 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error' };

function adminError(res: ServerResponse, status: number, message: string): void {
  json(res, status, { type: 'error', error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message: `gw: ${message}` }, source: 'gateway' });
}

/**
 * The admin listener (its own port, loopback by default): /metrics,
 * /healthz and /readyz for the platform, and the Usage and Logs API, each
 * request decided per company by the configured access.
 */
export function createAdminServer(options: AdminServerOptions): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const owner = options.console;
    if (owner && owner.handles((req.url ?? '/').split('?')[0] ?? '/')) {
      void owner.handle(req, res);
      return;
    }
    void route(options, req, res).catch((error: unknown) => {
      // A usage store that is not there yet or out of reach is an outage the caller can wait out (503);
      // anything else is a defect (500). Either way the caller gets a fixed text, the log the reason.
      const unavailable = error instanceof UsageStoreUnavailable;
      options.log.error({ path: (req.url ?? '').split('?')[0], err: unavailable ? error.reason : error instanceof Error ? error.message : String(error) }, 'admin request failed');
      if (res.headersSent) res.destroy();
      else if (unavailable) adminError(res, 503, error.message);
      else adminError(res, 500, ADMIN_MESSAGES.internal);
    });
  });
}

const ROUTES: Readonly<Record<string, AdminResource>> = { '/admin/v1/logs': 'logs', '/admin/v1/usage': 'usage' };

async function route(options: AdminServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin');
  if (req.method !== 'GET') return adminError(res, 405, ADMIN_MESSAGES.onlyGet);
  switch (url.pathname) {
    case '/healthz':
      return json(res, 200, { status: 'ok' });
    case '/readyz': {
      if (!options.ready()) return json(res, 503, { status: 'not ready' });
      try {
        await options.state.listCompanies();
        return json(res, 200, { status: 'ready', state: options.state.kind });
      } catch {
        return json(res, 503, { status: 'state unreachable', state: options.state.kind });
      }
    }
    case '/metrics': {
      const body = await options.registry.metrics();
      res.writeHead(200, { 'content-type': options.registry.contentType });
      res.end(body);
      return;
    }
  }
  const resource = ROUTES[url.pathname];
  if (resource === undefined) {
    // Unknown paths answer 401 to anyone the admin API does not know, so an unauthenticated
    // caller cannot map which admin routes exist; an authenticated one (allowed or 403) learns 404.
    if (options.access === null) return adminError(res, 401, ADMIN_MESSAGES.disabled);
    const who = await options.access.decide(req.headers.authorization, 'logs', null);
    if (!who.ok && who.status === 401) return adminError(res, 401, who.message);
    return adminError(res, 404, ADMIN_MESSAGES.noRoute(url.pathname));
  }
  if (options.access === null) return adminError(res, 401, ADMIN_MESSAGES.disabled);
  const company = url.searchParams.get('company') || null;
  const decision = await options.access.decide(req.headers.authorization, resource, company);
  if (!decision.ok) return adminError(res, decision.status, decision.message);
  const format = url.searchParams.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') return adminError(res, 400, ADMIN_MESSAGES.badFormat);
  const problems: string[] = [];
  const source = searchParamsSource(url.searchParams);
  if (resource === 'logs') {
    const query = readLogsQuery(source, problems);
    if (problems.length > 0) return adminError(res, 400, problems.join('; '));
    const answer = await options.usage.logs(query);
    if (format === 'csv') return text(res, 'text/csv; charset=utf-8', logsCsv(answer.data), droppedHeader(answer.droppedRecords));
    return json(res, 200, { data: answer.data, dropped_records: answer.droppedRecords, ...droppedWarning(answer.droppedRecords) });
  }
  const query = readReportQuery(source, problems);
  if (problems.length > 0) return adminError(res, 400, problems.join('; '));
  const answer = await options.usage.report(query);
  if (format === 'csv') return text(res, 'text/csv; charset=utf-8', reportCsv(answer.data), droppedHeader(answer.droppedRecords));
  return json(res, 200, { group_by: query.groupBy, period: query.period ?? null, data: answer.data, dropped_records: answer.droppedRecords, ...droppedWarning(answer.droppedRecords) });
}

function droppedHeader(n: number): Record<string, string> {
  return n > 0 ? { 'x-gw-dropped-records': String(n) } : {};
}

/** Never silent: an answer over records of which older ones were given up says so. */
export function droppedWarning(n: number): { warning?: string } {
  return n > 0 ? { warning: `${n} older usage record(s) were dropped before this answer (bounded buffer or stream cap); configure PostgreSQL (--postgres) to keep every record` } : {};
}
