/**
 * The router half of the harness: pick a cluster from the routing header,
 * forward, and hand back the response for the encode path. Replies the
 * router makes itself (no route, upstream unreachable) also go through the
 * encode path, so the processor sees them as response_headers like any
 * other response (reference §2.1).
 */
import { errors, request, type Dispatcher } from 'undici';
import { HeaderMap } from './header-map.js';
import type { ResolvedOptions } from './options.js';

export interface RoutedResponse {
  status: number;
  /** `:status` first, then the response headers. */
  headers: HeaderMap;
  body: AsyncIterable<Buffer>;
  /** The headers already end the response (no body follows). */
  endOfStream: boolean;
  details: string;
}

// Hop-by-hop headers never reach Envoy's header map; its codecs frame bodies themselves.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name);
}

/** Envoy's route match on the routing header, falling back to the catch-all. */
export function selectCluster(headers: HeaderMap, options: ResolvedOptions): string | undefined {
  const named = headers.getString(options.routeHeader);
  if (named !== undefined && options.clusters.has(named)) return named;
  return options.defaultCluster;
}

async function* once(body: Buffer): AsyncIterable<Buffer> {
  if (body.length > 0) yield body;
}

export function routerReply(status: number, text: string, details: string): RoutedResponse {
  const body = Buffer.from(text);
  const headers = HeaderMap.fromPairs([[':status', String(status)]]);
  if (body.length > 0) headers.add('content-type', 'text/plain');
  headers.add('content-length', String(body.length));
  return { status, headers, body: once(body), endOfStream: body.length === 0, details };
}

export async function forward(
  dispatcher: Dispatcher,
  base: URL,
  requestHeaders: HeaderMap,
  body: Buffer,
  options: ResolvedOptions,
  signal: AbortSignal,
): Promise<RoutedResponse> {
  const method = requestHeaders.getString(':method') ?? 'GET';
  const path = requestHeaders.getString(':path') ?? '/';
  const headers = requestHeaders.toRecord();
  for (const name of options.requestHeadersToRemove) delete headers[name];
  headers.host = options.autoHostRewrite ? base.host : (requestHeaders.getString(':authority') ?? base.host);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(new URL(path, base.origin), {
      dispatcher,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body.length > 0 || requestHeaders.has('content-length') ? body : undefined,
      signal,
      ...(options.routeIdleTimeoutMs !== undefined ? { headersTimeout: options.routeIdleTimeoutMs, bodyTimeout: options.routeIdleTimeoutMs } : {}),
    });
  } catch (err) {
    if (err instanceof errors.HeadersTimeoutError) return routerReply(408, 'stream timeout', 'stream_idle_timeout');
    const reason =
      err instanceof errors.RequestContentLengthMismatchError ? 'content_length_mismatch' : 'connection_failure';
    return routerReply(
      503,
      `upstream connect error or disconnect/reset before headers. reset reason: ${reason}`,
      `upstream_reset_before_response_started{${reason}}`,
    );
  }
  const out = HeaderMap.fromPairs([[':status', String(response.statusCode)]]);
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || isHopByHop(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.add(name, v);
  }
  const noBody =
    method === 'HEAD' ||
    response.statusCode === 204 ||
    response.statusCode === 304 ||
    out.getString('content-length') === '0';
  if (noBody) response.body.resume();
  return {
    status: response.statusCode,
    headers: out,
    body: response.body as AsyncIterable<Buffer>,
    endOfStream: noBody,
    details: 'via_upstream',
  };
}
