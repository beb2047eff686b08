import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { USAGE_GROUPS, type UsageGroup } from '../state/queries.js';
import type { GatewayState } from '../state/state.js';
import { adminTokenMatches } from './admin-token.js';

export interface AdminServerOptions {
  readonly state: GatewayState;
  readonly registry: Registry;
  readonly adminToken: string | null;
  /** False while starting or shutting down. */
  readonly ready: () => boolean;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function adminError(res: ServerResponse, status: number, message: string): void {
  json(res, status, { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message: `gw: ${message}` }, source: 'gateway' });
}

function isoOrUndefined(value: string | null): string | undefined | null {
  if (value === null || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * The admin listener (its own port, loopback by default): /metrics,
 * /healthz and /readyz for the platform, and behind the admin bearer token
 * the Usage and Logs API.
 */
export function createAdminServer(options: AdminServerOptions): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    void route(options, req, res).catch(() => {
      if (!res.headersSent) adminError(res, 500, 'internal error');
      else res.destroy();
    });
  });
}

async function route(options: AdminServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin');
  if (req.method !== 'GET') return adminError(res, 405, 'only GET is served here');
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
      const text = await options.registry.metrics();
      res.writeHead(200, { 'content-type': options.registry.contentType });
      res.end(text);
      return;
    }
  }
  if (!url.pathname.startsWith('/admin/')) return adminError(res, 404, `no route for ${url.pathname}`);
  if (options.adminToken === null) return adminError(res, 401, 'the admin API is disabled: start the gateway with GW_ADMIN_TOKEN or --admin-token-file');
  if (!adminTokenMatches(req.headers.authorization, options.adminToken)) return adminError(res, 401, 'the admin API needs "Authorization: Bearer <admin token>"');
  const since = isoOrUndefined(url.searchParams.get('since'));
  if (since === null) return adminError(res, 400, '"since" must be a date or date-time');
  const company = url.searchParams.get('company') ?? undefined;
  if (url.pathname === '/admin/v1/logs') {
    const limitRaw = url.searchParams.get('limit');
    const limit = limitRaw === null ? 100 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) return adminError(res, 400, '"limit" must be an integer from 1 to 10000');
    const data = await options.state.queryLogs({
      limit,
      ...(company !== undefined ? { company } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(url.searchParams.has('address') ? { address: url.searchParams.get('address') as string } : {}),
      ...(url.searchParams.has('model') ? { model: url.searchParams.get('model') as string } : {}),
    });
    return json(res, 200, { data });
  }
  if (url.pathname === '/admin/v1/usage') {
    const groupBy = (url.searchParams.get('group_by') ?? 'address') as UsageGroup;
    if (!USAGE_GROUPS.includes(groupBy)) return adminError(res, 400, `"group_by" must be one of ${USAGE_GROUPS.join(', ')}`);
    const data = await options.state.queryUsage({ groupBy, ...(company !== undefined ? { company } : {}), ...(since !== undefined ? { since } : {}) });
    return json(res, 200, { group_by: groupBy, data });
  }
  return adminError(res, 404, `no route for ${url.pathname}`);
}
