import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { renderGatewayError } from '../errors/render.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { RequestContext } from '../pipeline/context.js';
import { tooLarge, type Pipeline } from '../pipeline/pipeline.js';
import type { ForwardPlan, LocalResponse } from '../pipeline/types.js';
import { isHopByHop } from '../upstream/hop-by-hop.js';
import { readBody } from './read-body.js';

export interface GatewayServerOptions {
  readonly upstreamHeadersTimeoutMs: number;
  readonly upstreamBodyTimeoutMs: number;
  /** Called with the count of requests in flight whenever it changes. */
  readonly onInFlight?: (count: number) => void;
}

export interface GatewayServer {
  readonly server: Server;
  readonly dispatcher: Dispatcher;
  inFlight(): number;
  /** Stop accepting, let in-flight requests finish up to the deadline, then cut the rest. */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * The one-machine data plane: Node's HTTP server in front of the pipeline,
 * undici keep-alive pools behind it. Thin by design: every decision is the
 * pipeline's; this file only moves bytes.
 */
export function createGatewayServer(pipeline: Pipeline, options: GatewayServerOptions): GatewayServer {
  const dispatcher = new Agent({
    keepAliveTimeout: 30_000,
    // No cap on connections per provider: an HTTP/1.1 answer holds its connection for as long
    // as it streams, so a cap is a hidden queue (past it, streams waited for earlier ones to
    // end). Concurrency is bounded where it is decided: caller slots and credential leases.
    headersTimeout: options.upstreamHeadersTimeoutMs,
    bodyTimeout: options.upstreamBodyTimeoutMs,
  });
  const active = new Set<RequestContext>();
  const report = (): void => options.onInFlight?.(active.size);

  const server = createServer({ requestTimeout: 300_000, headersTimeout: 60_000, keepAliveTimeout: 65_000 }, (req, res) => {
    const ctx = pipeline.begin({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers as Record<string, string | undefined> });
    active.add(ctx);
    report();
    let finished = false;
    const done = (outcome: Parameters<Pipeline['finish']>[1]): void => {
      if (finished) return;
      finished = true;
      active.delete(ctx);
      report();
      void pipeline.finish(ctx, outcome);
    };
    handle(pipeline, dispatcher, ctx, req, res, done).catch((error: unknown) => {
      if (!res.headersSent) sendLocal(res, pipeline.errorResponse(ctx, error));
      else res.destroy();
      done('gateway_error');
    });
  });

  // Bytes Node's parser refuses (bad header characters, oversized heads) still get our error shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET')) {
      socket.destroy();
      return;
    }
    const tooBig = error.code === 'HPE_HEADER_OVERFLOW';
    const rendered = renderGatewayError(
      new GatewayError('invalid_request', tooBig ? 'gw: the request headers are too large' : 'gw: the request could not be parsed as HTTP (bad header name or value?)'),
      'req_unparsed',
    );
    const status = tooBig ? 431 : 400;
    const head = [`HTTP/1.1 ${status} ${tooBig ? 'Request Header Fields Too Large' : 'Bad Request'}`, ...rendered.headers.map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(rendered.body)}`, 'connection: close', '', ''].join('\r\n');
    socket.end(head + rendered.body);
  });

  return {
    server,
    dispatcher,
    inFlight: () => active.size,
    async shutdown(graceMs: number): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = Date.now() + graceMs;
      while (active.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      server.closeAllConnections();
      for (const ctx of [...active]) await pipeline.finish(ctx, 'shutdown');
      await closed;
      await dispatcher.close();
    },
  };
}

async function handle(
  pipeline: Pipeline,
  dispatcher: Dispatcher,
  ctx: RequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  done: (outcome: Parameters<Pipeline['finish']>[1]) => void,
): Promise<void> {
  const afterHeaders = await pipeline.onRequestHeaders(ctx);
  if (afterHeaders.kind === 'respond') {
    if (afterHeaders.response.status === 413) discardBody(req, pipeline.config.maxBodyBytes);
    sendLocal(res, afterHeaders.response);
    done('complete');
    return;
  }
  const read = await readBody(req, pipeline.config.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === 'too_large') {
      discardBody(req, pipeline.config.maxBodyBytes);
      sendLocal(res, pipeline.errorResponse(ctx, tooLarge(pipeline.config.maxBodyBytes)));
    }
    done(read.reason === 'too_large' ? 'complete' : 'client_disconnect');
    return;
  }
  const afterBody = await pipeline.onRequestBody(ctx, read.body);
  if (afterBody.kind === 'respond') {
    sendLocal(res, afterBody.response);
    done('complete');
    return;
  }
  await forward(pipeline, dispatcher, ctx, req, res, afterBody.plan, done);
}

/**
 * Read and drop the rest of a refused body, so the client (still uploading)
 * reads our 413 instead of a connection reset; a client that keeps sending
 * far past the limit is cut off.
 */
function discardBody(req: IncomingMessage, limit: number): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limit * 4) req.destroy();
  });
  req.resume();
}

function sendLocal(res: ServerResponse, response: LocalResponse): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Array<[string, string]> = response.headers.map(([k, v]) => [k, v]);
  headers.push(['content-length', String(Buffer.byteLength(response.body))]);
  res.writeHead(response.status, headers.flat());
  res.end(response.body);
}

/**
 * The header names a Connection header lists, parsed once per message (they are
 * hop-by-hop for that message too); null when there is none.
 */
function connectionTokens(connection: string | undefined): ReadonlySet<string> | null {
  if (connection === undefined) return null;
  const tokens = new Set<string>();
  for (const token of connection.toLowerCase().split(',')) {
    const name = token.trim();
    if (name !== '') tokens.add(name);
  }
  return tokens;
}

function upstreamHeaders(req: IncomingMessage, plan: ForwardPlan): Record<string, string> {
  const out: Record<string, string> = {};
  const remove = new Set(plan.removeHeaders);
  const listed = connectionTokens(req.headers.connection);
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (remove.has(name) || isHopByHop(name, undefined) || listed?.has(name) === true) continue;
    const value = raw[i + 1] as string;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  for (const [name, value] of plan.setHeaders) out[name] = value;
  return out;
}

async function forward(
  pipeline: Pipeline,
  dispatcher: Dispatcher,
  ctx: RequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  plan: ForwardPlan,
  done: (outcome: Parameters<Pipeline['finish']>[1]) => void,
): Promise<void> {
  const abort = new AbortController();
  let clientGone = false;
  res.on('close', () => {
    if (!res.writableFinished) {
      clientGone = true;
      abort.abort();
      done('client_disconnect');
    }
  });

  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await dispatcher.request({
      origin: plan.origin,
      path: plan.path,
      method: 'POST',
      headers: upstreamHeaders(req, plan),
      body: plan.body,
      signal: abort.signal,
    });
  } catch (error) {
    if (clientGone) return;
    sendLocal(res, pipeline.errorResponse(ctx, new GatewayError('upstream_unreachable', `gw: the provider could not be reached (${describeNetworkError(error)})`)));
    done('upstream_error');
    return;
  }

  const lower: Record<string, string | undefined> = {};
  const out: string[] = [];
  const listed = connectionTokens(typeof upstream.headers.connection === 'string' ? upstream.headers.connection : undefined);
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || isHopByHop(name, undefined) || listed?.has(name) === true || name.startsWith('x-gw-')) continue;
    if (Array.isArray(value)) {
      for (const v of value) out.push(name, v);
      lower[name] = value.join(', ');
    } else {
      out.push(name, value);
      lower[name] = value;
    }
  }
  const decision = pipeline.onResponseHeaders(ctx, upstream.statusCode, lower);
  for (const [name, value] of decision.addHeaders) out.push(name, value);
  if (clientGone) {
    upstream.body.destroy();
    return;
  }
  res.writeHead(upstream.statusCode, out);
  if (decision.streaming) res.flushHeaders();

  const body = upstream.body;
  body.on('data', (chunk: Buffer) => {
    // Pass the chunk on first, meter after: metering never delays a byte.
    if (!res.write(chunk)) body.pause();
    pipeline.onResponseChunk(ctx, chunk);
  });
  res.on('drain', () => body.resume());
  body.on('end', () => {
    res.end();
    res.once('finish', () => done('complete'));
  });
  body.on('error', () => {
    if (clientGone) return;
    // The provider reset mid-answer: the status line is gone, so cut the connection rather than fake an end.
    res.destroy();
    done('upstream_error');
  });
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return code ?? error.name;
  }
  return 'unknown error';
}
