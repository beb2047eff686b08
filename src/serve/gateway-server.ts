import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { renderGatewayError } from '../errors/render.js';
import { GatewayError } from '../errors/gateway-error.js';
import { CONNECTION_MESSAGES } from '../errors/messages.js';
import type { RequestContext } from '../pipeline/context.js';
import { tooLarge, type Pipeline } from '../pipeline/pipeline.js';
import type { LocalResponse } from '../pipeline/types.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../config/serve-config.js';
import { forward, sendLocal } from './forward-upstream.js';
import { readBody } from './read-body.js';

export interface GatewayServerOptions {
  readonly upstreamHeadersTimeoutMs: number;
  readonly upstreamBodyTimeoutMs: number;
  readonly connections?: ConnectionLimits;
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
  const limits = options.connections ?? DEFAULT_CONNECTION_LIMITS;
  const active = new Set<RequestContext>();
  const report = (): void => options.onInFlight?.(active.size);
  /** The request a connection is serving, so a timeout on it is answered as that request. */
  const serving = new WeakMap<Socket, { ctx: RequestContext; req: IncomingMessage; res: ServerResponse }>();
  /**
   * Connections answered 429 too_many_connections as they opened. Node's parser still reads what the
   * peer sends on them; a request parsed there is never served (it would spend a caller slot, a lease
   * and provider tokens on an answer nobody reads). It is not destroyed either: a close with unread
   * bytes resets the connection, and the peer could lose our 429. The timer in writeRaw ends it.
   */
  const refused = new WeakSet<Socket>();

  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks both timeouts on this period; a quarter of the shorter keeps the overshoot small.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
      // The request line and framing headers come on top of the caller's headers the pipeline bounds.
      maxHeaderSize: pipeline.config.maxRequestHeaderBytes + 16 * 1024,
    },
    (req, res) => {
      if (refused.has(req.socket)) return;
      const shape = rawShape(req.rawHeaders);
      const ctx = pipeline.begin({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers as Record<string, string | undefined>,
        repeated: shape.repeated,
        fieldCount: shape.fieldCount,
        headerBytes: shape.headerBytes,
      });
      active.add(ctx);
      serving.set(req.socket, { ctx, req, res });
      report();
      let finished = false;
      const done = (outcome: Parameters<Pipeline['finish']>[1]): void => {
        if (finished) return;
        finished = true;
        active.delete(ctx);
        if (serving.get(req.socket)?.ctx === ctx) serving.delete(req.socket);
        report();
        void pipeline.finish(ctx, outcome);
      };
      handle(pipeline, dispatcher, ctx, req, res, done, limits).catch((error: unknown) => {
        if (!res.headersSent) sendLocal(res, pipeline.errorResponse(ctx, error));
        else res.destroy();
        done('gateway_error');
      });
    },
  );

  // Node would answer any Expect but 100-continue with a bare 417; ours has the error shape.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (refused.has(req.socket)) return;
    const ctx = pipeline.begin({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers as Record<string, string | undefined> });
    const expectation = String(req.headers.expect ?? '').slice(0, 64);
    res.shouldKeepAlive = false;
    sendLocal(res, pipeline.errorResponse(ctx, new GatewayError('expectation_failed', CONNECTION_MESSAGES.expectUnsupported(expectation))));
    void pipeline.finish(ctx, 'complete');
  });

  // Bytes Node's parser refuses (bad header characters, oversized heads) and its timeouts still get our error shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const inFlight = serving.get(socket);
    if (inFlight) {
      // The request was under way (its body still arriving): answer as that request, if nothing was sent yet.
      // Node has let go of the request by now; destroying it ends the body read, which ends the request.
      const end = (): void => {
        inFlight.req.destroy();
        socket.destroy();
      };
      if (timedOut && !inFlight.res.headersSent) {
        inFlight.res.shouldKeepAlive = false;
        sendLocal(inFlight.res, pipeline.errorResponse(inFlight.ctx, requestTimedOut(limits)));
        inFlight.res.once('finish', end);
      } else end();
      return;
    }
    const tooBig = error.code === 'HPE_HEADER_OVERFLOW';
    const gatewayError = timedOut
      ? new GatewayError('request_timeout', CONNECTION_MESSAGES.headTimeout(limits.headersTimeoutMs))
      : tooBig
        ? new GatewayError('headers_too_large', CONNECTION_MESSAGES.headersTooLarge(pipeline.config.maxRequestHeaderBytes))
        : new GatewayError('invalid_request', CONNECTION_MESSAGES.notHttp);
    writeRaw(socket, renderGatewayError(gatewayError, 'req_unparsed'));
  });

  // One address may hold only so many connections; past that it gets our 429 and the connection closes.
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const open = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, open);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
    if (open > limits.maxConnectionsPerAddress) {
      refused.add(socket);
      writeRaw(socket, renderGatewayError(new GatewayError('too_many_connections', CONNECTION_MESSAGES.tooManyConnections(limits.maxConnectionsPerAddress)), 'req_unparsed'));
    }
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

function requestTimedOut(limits: ConnectionLimits): GatewayError {
  return new GatewayError('request_timeout', CONNECTION_MESSAGES.requestTimeout(limits.requestTimeoutMs));
}

/** An answer on a connection Node's HTTP layer does not own (or no longer): written whole, then the connection closes. */
function writeRaw(socket: Socket, rendered: LocalResponse): void {
  const reason = STATUS_CODES[rendered.status] ?? 'Error';
  const head = [`HTTP/1.1 ${rendered.status} ${reason}`, ...rendered.headers.map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(rendered.body)}`, 'connection: close', '', ''].join(
    '\r\n',
  );
  socket.end(head + rendered.body);
  // A peer that never reads what we wrote must not keep the socket.
  setTimeout(() => socket.destroy(), 5_000).unref();
}

async function handle(
  pipeline: Pipeline,
  dispatcher: Dispatcher,
  ctx: RequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  done: (outcome: Parameters<Pipeline['finish']>[1]) => void,
  limits: ConnectionLimits,
): Promise<void> {
  const afterHeaders = await pipeline.onRequestHeaders(ctx);
  if (afterHeaders.kind === 'respond') {
    if (afterHeaders.response.status === 413) discardBody(req, pipeline.config.maxBodyBytes);
    // Any other answer before the body (401 above all) does not take the upload: our side of the
    // connection ends after the answer, so the client stops sending (what is already in flight is
    // dropped unparsed). Ending without destroying lets the client read the answer first; a
    // reset would discard it.
    // A small declared body is read and dropped, unparsed, so the connection stays usable: ending
    // it would fail the next request a pooling client sends on it ("other side closed").
    else if (smallDeclaredBody(req)) discardBody(req, SMALL_REFUSED_BODY_BYTES);
    else if (hasBody(req)) res.once('finish', () => endWithoutBody(req));
    sendLocal(res, afterHeaders.response);
    done('complete');
    return;
  }
  const read = await readBody(req, pipeline.config.maxBodyBytes, { minBytesPerSecond: limits.bodyMinBytesPerSecond, windowMs: limits.bodyRateWindowMs });
  if (!read.ok) {
    if (read.reason === 'too_large') {
      discardBody(req, pipeline.config.maxBodyBytes);
      sendLocal(res, pipeline.errorResponse(ctx, tooLarge(pipeline.config.maxBodyBytes)));
    } else if (read.reason === 'too_slow') {
      res.shouldKeepAlive = false;
      const rate = new GatewayError('request_timeout', CONNECTION_MESSAGES.bodyTooSlow(limits.bodyMinBytesPerSecond, limits.bodyRateWindowMs));
      sendLocal(res, pipeline.errorResponse(ctx, rate));
      res.once('finish', () => req.socket.destroy());
    }
    done(read.reason === 'aborted' ? 'client_disconnect' : 'complete');
    return;
  }
  const afterBody = await pipeline.onRequestBody(ctx, read.body);
  if (afterBody.kind === 'respond') {
    sendLocal(res, afterBody.response);
    done('complete');
    return;
  }
  await forward(pipeline, dispatcher, ctx, req, res, afterBody.plan, done, limits.writeIdleTimeoutMs);
}

/** Up to this many declared bytes of a refused request are drained rather than cut off. */
const SMALL_REFUSED_BODY_BYTES = 64 * 1024;

function smallDeclaredBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = Number(req.headers['content-length'] ?? '0');
  return Number.isInteger(length) && length > 0 && length <= SMALL_REFUSED_BODY_BYTES;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function endWithoutBody(req: IncomingMessage): void {
  const socket = req.socket;
  socket.end();
  const timer = setTimeout(() => socket.destroy(), 2_000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
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

/**
 * What Node's joined header object hides: repeats (it keeps the first of some,
 * such as Authorization and Host, and drops the rest), the true field count
 * and the bytes as sent.
 */
function rawShape(raw: readonly string[]): { repeated: string[]; fieldCount: number; headerBytes: number } {
  const seen = new Set<string>();
  const repeated: string[] = [];
  let headerBytes = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    headerBytes += name.length + (raw[i + 1] as string).length;
    if (seen.has(name)) {
      if (!repeated.includes(name)) repeated.push(name);
    } else seen.add(name);
  }
  return { repeated, fieldCount: raw.length / 2, headerBytes };
}
