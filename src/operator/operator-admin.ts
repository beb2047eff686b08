import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

export interface OperatorAdminOptions {
  readonly registry: Registry;
  readonly synced: () => boolean;
  readonly role: () => 'leader' | 'follower';
  readonly identity: string;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The operator's admin listener: /healthz (the process answers), /readyz
 * (every informer has listed; a follower is ready too, since it is ready to
 * take over) and /metrics. It serves no data, so it needs no token.
 */
export function createOperatorAdminServer(options: OperatorAdminOptions): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://admin').pathname;
    if (req.method !== 'GET') return json(res, 405, { status: 'only GET is served here' });
    switch (path) {
      case '/healthz':
        return json(res, 200, { status: 'ok' });
      case '/readyz':
        if (!options.synced()) return json(res, 503, { status: 'syncing', role: options.role(), identity: options.identity });
        return json(res, 200, { status: 'ready', role: options.role(), identity: options.identity });
      case '/metrics':
        options.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': options.registry.contentType });
            res.end(text);
          },
          () => json(res, 500, { status: 'metrics failed' }),
        );
        return;
      default:
        return json(res, 404, { status: `no route for ${path}` });
    }
  });
}
