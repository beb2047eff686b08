import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an Anthropic-compatible provider that speaks the real wire
 * format: Messages JSON and SSE (with events split across writes and several
 * events per write), count_tokens, a paginated /v1/models, error shapes and
 * unified rate-limit headers. Tests script it per request and read back
 * exactly what it received.
 */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  /** TLS mock only: the request's :scheme (HTTP/2) and the SNI the client sent. */
  readonly scheme?: string;
  readonly servername?: string;
  /** Request trailers received after the body (none: empty). */
  readonly trailers?: Record<string, string>;
  /** When the request's body had arrived, and when the answer was finished (epoch ms; null while it is not). */
  readonly receivedAt?: number;
  answeredAt?: number | null;
}

/**
 * A TLS provider front: HTTP/2 over TLS (HTTP/1.1 too, by ALPN) with a
 * certificate from a private CA. Like the strict front ends of large
 * providers, it refuses an HTTP/2 request whose :scheme is not https.
 */
export interface MockTls {
  readonly cert: string;
  readonly key: string;
}

export interface MockUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

export type Behaviour =
  | { kind: 'normal' }
  | { kind: 'status'; status: number; errorType: string; message: string; headers?: Record<string, string> }
  | { kind: 'reset-mid-stream'; afterEvents: number }
  | { kind: 'malformed-sse' }
  | { kind: 'slow-stream'; delayMs: number }
  | { kind: 'no-message-stop' };

export interface MockProviderOptions {
  /** Text the assistant answers, split into these deltas. */
  deltas?: string[];
  usage?: MockUsage;
  /** Usage reported again in message_delta (cumulative output). */
  deltaUsage?: Partial<MockUsage>;
  models?: string[];
  /** When false, /v1/models answers 404 (a local runtime without a list). */
  serveModels?: boolean;
  /** Extra headers on every /v1/messages answer (e.g. unified rate-limit headers). */
  responseHeaders?: Record<string, string>;
  /**
   * Authenticate as a provider does, on every route: a request whose key
   * (x-api-key, or the bearer) is in `reject`, or not in `accept` when that
   * is given, gets 401 authentication_error. Without it, any key is taken.
   */
  keys?: { accept?: readonly string[]; reject?: readonly string[] };
  /** Wait this long before answering a /v1/messages request (a provider's think time). */
  answerDelayMs?: number;
}

export interface MockProvider {
  readonly url: string;
  readonly seen: SeenRequest[];
  behaviour: Behaviour;
  options: MockProviderOptions;
  messageRequests(): SeenRequest[];
  close(): Promise<void>;
}

export const DEFAULT_DELTAS = ['Hi there! This ', 'is the mock ', 'Anthropic server speaking.'];
export const DEFAULT_USAGE: MockUsage = {
  input_tokens: 1200,
  output_tokens: 37,
  cache_creation_input_tokens: 300,
  cache_read_input_tokens: 5000,
  cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 100 },
};

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function streamEvents(model: string, deltas: string[], usage: MockUsage, deltaUsage: Partial<MockUsage>): string[] {
  const events = [
    sse('message_start', {
      type: 'message_start',
      message: { id: 'msg_mock_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ': keep-alive comment\n\n',
    sse('ping', { type: 'ping' }),
  ];
  for (const text of deltas) events.push(sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }));
  events.push(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
  events.push(sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens, ...deltaUsage } }));
  events.push(sse('message_stop', { type: 'message_stop' }));
  return events;
}

export async function startMockProvider(options: MockProviderOptions = {}, tls?: MockTls): Promise<MockProvider> {
  const seen: SeenRequest[] = [];
  const state = { behaviour: { kind: 'normal' } as Behaviour, options };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const body = await readAll(req);
      const path = req.url ?? '/';
      const h2 = req.httpVersionMajor === 2 ? (req as unknown as Http2ServerRequest) : null;
      const scheme = h2 ? h2.scheme : undefined;
      const servername = tls ? (req.socket as TLSSocket).servername || undefined : undefined;
      const trailers = Object.fromEntries(
        Object.entries(req.trailers ?? {})
          .filter(([k]) => !k.startsWith(':'))
          .map(([k, v]) => [k, String(v)]),
      );
      const entry: SeenRequest = {
        method: req.method ?? '',
        path,
        headers: { ...req.headers },
        body,
        ...(scheme !== undefined ? { scheme } : {}),
        ...(servername !== undefined ? { servername } : {}),
        ...(Object.keys(trailers).length > 0 ? { trailers } : {}),
        receivedAt: Date.now(),
        answeredAt: null,
      };
      seen.push(entry);
      res.on('finish', () => {
        entry.answeredAt = Date.now();
      });
      if (h2 && scheme !== 'https') {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `:scheme ${scheme} on a TLS connection` } }));
        return;
      }
      await answer(req, res, path, body, state);
    })().catch(() => res.destroy());
  };
  const server = tls ? createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: true }, handler as never) : (createServer(handler) as Server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // TLS: by name, so the certificate's DNS SAN and SNI are exercised.
  const url = tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  return {
    url,
    seen,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(b: Behaviour) {
      state.behaviour = b;
    },
    get options() {
      return state.options;
    },
    set options(o: MockProviderOptions) {
      state.options = o;
    },
    messageRequests: () => seen.filter((r) => r.path.startsWith('/v1/messages') || r.path.includes('/v1/messages')),
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
        // HTTP/2 sessions keep a secure server open; they end with the test process.
        if (tls) setTimeout(resolve, 200).unref();
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer, state: { behaviour: Behaviour; options: MockProviderOptions }): Promise<void> {
  const { options, behaviour } = state;
  const pathname = path.split('?')[0] ?? '';
  if (options.keys) {
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const key = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : bearer;
    const { accept, reject } = options.keys;
    if (key === undefined || reject?.includes(key) === true || (accept !== undefined && !accept.includes(key))) {
      res.writeHead(401, { 'content-type': 'application/json', 'request-id': 'req_mock_auth' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
      return;
    }
  }
  if (req.method === 'GET' && pathname.endsWith('/v1/models')) {
    if (options.serveModels === false) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no models endpoint' } }));
      return;
    }
    const ids = options.models ?? ['claude-opus-4-8', 'claude-sonnet-5', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'];
    const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-01-01T00:00:00Z' }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data, has_more: false, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null }));
    return;
  }
  const extra = options.responseHeaders ?? {};
  if (pathname.endsWith('/v1/messages/count_tokens')) {
    res.writeHead(200, { 'content-type': 'application/json', ...extra });
    res.end(JSON.stringify({ input_tokens: 42 }));
    return;
  }
  if (!pathname.endsWith('/v1/messages')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `mock: no route ${pathname}` } }));
    return;
  }
  if (behaviour.kind === 'status') {
    res.writeHead(behaviour.status, { 'content-type': 'application/json', 'request-id': 'req_mock_err', ...extra, ...(behaviour.headers ?? {}) });
    res.end(JSON.stringify({ type: 'error', error: { type: behaviour.errorType, message: behaviour.message } }));
    return;
  }
  let parsed: { model?: string; stream?: boolean } = {};
  try {
    parsed = JSON.parse(body.toString('utf8')) as { model?: string; stream?: boolean };
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'mock: body is not JSON' } }));
    return;
  }
  if (options.answerDelayMs) await new Promise((r) => setTimeout(r, options.answerDelayMs));
  const model = parsed.model ?? 'unknown';
  const deltas = options.deltas ?? DEFAULT_DELTAS;
  const usage = options.usage ?? DEFAULT_USAGE;
  if (!parsed.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_mock_1', ...extra });
    res.end(
      JSON.stringify({
        id: 'msg_mock_1',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: deltas.join('') }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_mock_1', ...extra });
  let events = streamEvents(model, deltas, usage, options.deltaUsage ?? {});
  if (behaviour.kind === 'malformed-sse') {
    events = [events[0] as string, 'event: content_block_delta\ndata: {not json at all\n\n', 'garbage line without colon\n', ...events.slice(1)];
  }
  if (behaviour.kind === 'no-message-stop') events = events.slice(0, -1);
  const wire = events.join('');
  // Realistic splits: cut the stream at odd offsets so events straddle writes.
  const cuts: number[] = [];
  for (let at = 17; at < wire.length; at += 61) cuts.push(at);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(wire.slice(from, cut));
    from = cut;
  }
  pieces.push(wire.slice(from));
  let eventsSent = 0;
  for (const piece of pieces) {
    if (res.destroyed) return;
    res.write(piece);
    eventsSent += (piece.match(/\n\n/g) ?? []).length;
    if (behaviour.kind === 'reset-mid-stream' && eventsSent >= behaviour.afterEvents) {
      res.socket?.destroy();
      return;
    }
    await new Promise((r) => setTimeout(r, behaviour.kind === 'slow-stream' ? behaviour.delayMs : 2));
  }
  res.end();
}
