/**
 * The router half of the harness: pick a cluster from the routing header,
 * forward, and hand back the response for the encode path. Replies the
 * router makes itself (no route, upstream unreachable) also go through the
 * encode path, so the processor sees them as response_headers like any
 * other response (reference §2.1).
 */
import { connect as connectHttp2, constants as h2, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
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
  /** The response's trailers, once its body has been read (none: empty). */
  trailers(): HeaderMap;
  /**
   * Set on the router's own local replies that local_reply_config has not yet
   * rewritten: their body and response flags (UF, UH, SI, NR...).
   */
  local?: { body: Buffer; flags: readonly string[] };
}

/** Where a routed request goes: a static cluster's base URL, or a dynamic forward proxy target. */
export interface Target {
  cluster: string;
  base: URL;
}

// Hop-by-hop headers never reach Envoy's header map; its codecs frame bodies themselves.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name);
}

/**
 * Envoy's route match on the routing header (a dynamic forward proxy route
 * also needs its host header present), falling back to the catch-all route
 * to defaultCluster; undefined when only a direct_response catch-all or no
 * route is left.
 */
export function selectCluster(headers: HeaderMap, options: ResolvedOptions): string | undefined {
  const named = headers.getString(options.routeHeader);
  if (named !== undefined && options.clusters.has(named)) return named;
  if (named !== undefined && options.dynamicClusters.has(named) && headers.has(options.upstreamHostHeader)) return named;
  return options.defaultCluster;
}

/**
 * The upstream of a cluster. A dynamic forward proxy cluster connects to the
 * host in the per-route host_rewrite_header, which the filter copies into
 * Host before DNS; the port defaults to the cluster's scheme (443 with TLS).
 * envoy/source/extensions/filters/http/dynamic_forward_proxy/proxy_filter.cc
 */
export function targetOf(cluster: string, headers: HeaderMap, options: ResolvedOptions): Target | undefined {
  const fixed = options.clusters.get(cluster);
  if (fixed) return { cluster, base: fixed };
  const scheme = options.dynamicClusters.get(cluster);
  const host = headers.getString(options.upstreamHostHeader);
  if (scheme === undefined || host === undefined) return undefined;
  try {
    return { cluster, base: new URL(`${scheme}://${host}`) };
  } catch {
    return undefined;
  }
}

/**
 * The upstream host's address as %UPSTREAM_HOST% prints it (ip:port): the
 * dynamic forward proxy resolves the host with the cache's dns_lookup_family,
 * V4_PREFERRED in the generated bootstrap.
 */
export async function resolveUpstreamAddress(base: URL): Promise<string | undefined> {
  const hostname = base.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = base.port || (base.protocol === 'https:' ? '443' : '80');
  const format = (address: string, family: number): string => (family === 6 ? `[${address}]:${port}` : `${address}:${port}`);
  if (isIP(hostname) !== 0) return format(hostname, isIP(hostname));
  try {
    const found = await lookup(hostname, { order: 'ipv4first' });
    return format(found.address, found.family);
  } catch {
    return undefined;
  }
}

async function* once(body: Buffer): AsyncIterable<Buffer> {
  if (body.length > 0) yield body;
}

export function routerReply(status: number, text: string, details: string, flags: readonly string[] = []): RoutedResponse {
  const body = Buffer.from(text);
  const headers = HeaderMap.fromPairs([[':status', String(status)]]);
  if (body.length > 0) headers.add('content-type', 'text/plain');
  headers.add('content-length', String(body.length));
  return { status, headers, body: once(body), endOfStream: body.length === 0, details, trailers: () => new HeaderMap(), local: { body, flags } };
}

/** A router local reply after local_reply_config: headers as rewritten (content-type and -length included). */
export function rewrittenRouterReply(status: number, rewritten: HeaderMap, body: Buffer, details: string): RoutedResponse {
  const headers = HeaderMap.fromPairs([[':status', String(status)]]);
  for (const h of rewritten.toProto()) headers.add(h.key ?? '', h.raw_value ?? Buffer.alloc(0));
  if (!headers.has('content-length')) headers.add('content-length', String(body.length));
  return { status, headers, body: once(body), endOfStream: body.length === 0, details, trailers: () => new HeaderMap() };
}

/**
 * The "no byte from the upstream for this long" local reply (route
 * idle_timeout / HCM stream_idle_timeout): 504 once the request was fully
 * received, 408 before; the harness always forwards a complete request.
 * envoy/source/common/http/utility.cc maybeRequestTimeoutCode,
 * envoy/source/common/http/conn_manager_impl.cc ActiveStream::onIdleTimeout
 */
export function idleTimeoutReply(): RoutedResponse {
  return routerReply(504, 'stream timeout', 'stream_idle_timeout', ['SI']);
}

function connectFailure(reason: string): RoutedResponse {
  return routerReply(503, `upstream connect error or disconnect/reset before headers. reset reason: ${reason}`, `upstream_reset_before_response_started{${reason}}`, ['UF']);
}

export async function forward(
  dispatcher: Dispatcher,
  base: URL,
  requestHeaders: HeaderMap,
  body: Buffer,
  options: ResolvedOptions,
  signal: AbortSignal,
  trailers: HeaderMap = new HeaderMap(),
): Promise<RoutedResponse> {
  const method = requestHeaders.getString(':method') ?? 'GET';
  const path = requestHeaders.getString(':path') ?? '/';
  if (base.protocol === 'https:') return forwardTls(base, requestHeaders, body, options, signal, trailers);
  // Request trailers are not forwarded to an HTTP/1 upstream: the HTTP/1 codec drops proxied
  // trailers unless the cluster sets http_protocol_options.enable_trailers, which ours do not
  // (api/envoy/config/core/v3/protocol.proto Http1ProtocolOptions.enable_trailers;
  // source/common/http/http1/codec_impl.cc, StreamEncoderImpl::encodeTrailersBase).
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
    if (err instanceof errors.HeadersTimeoutError) return idleTimeoutReply();
    return connectFailure(err instanceof errors.RequestContentLengthMismatchError ? 'content_length_mismatch' : 'connection_failure');
  }
  const out = HeaderMap.fromPairs([[':status', String(response.statusCode)]]);
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || isHopByHop(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.add(name, v);
  }
  const noBody = method === 'HEAD' || response.statusCode === 204 || response.statusCode === 304 || out.getString('content-length') === '0';
  if (noBody) response.body.resume();
  return {
    status: response.statusCode,
    headers: out,
    body: response.body as AsyncIterable<Buffer>,
    endOfStream: noBody,
    details: 'via_upstream',
    // The HTTP/1 client codec ignores response trailers unless the cluster enables them
    // (source/common/http/http1/codec_impl.cc, the same enableTrailers() check as downstream).
    trailers: () => (options.upstreamHttp1Trailers ? headerMapOf(response.trailers as Record<string, string | string[] | undefined>) : new HeaderMap()),
  };
}

function headerMapOf(record: Record<string, string | string[] | undefined> | IncomingHttpHeaders | undefined): HeaderMap {
  const out = new HeaderMap();
  for (const [name, value] of Object.entries(record ?? {})) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.add(name, String(v));
  }
  return out;
}

/**
 * A TLS cluster, as the generated bootstrap configures it: SNI and the
 * certificate's subject name are the upstream host (auto_sni,
 * auto_san_validation; no SNI for an IP literal, which TLS does not allow),
 * the chain is verified against upstreamCa, and ALPN picks HTTP/2 (the
 * harness speaks only h2 to TLS upstreams). `:scheme` is https with
 * scheme_header_transformation.match_upstream and the downstream's (http)
 * without it: envoy/source/common/router/router.cc (Filter::decodeHeaders,
 * scheme rewrite), api/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager.proto
 * (SchemeHeaderTransformation).
 */
async function forwardTls(base: URL, requestHeaders: HeaderMap, body: Buffer, options: ResolvedOptions, signal: AbortSignal, trailers: HeaderMap): Promise<RoutedResponse> {
  const hostname = base.hostname.replace(/^\[(.*)\]$/, '$1');
  let session: ClientHttp2Session;
  try {
    session = await new Promise<ClientHttp2Session>((resolve, reject) => {
      const s = connectHttp2(base.origin, {
        ...(options.upstreamCa !== undefined ? { ca: options.upstreamCa } : {}),
        ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
        ALPNProtocols: ['h2'],
      });
      s.once('connect', () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const tls = /CERT|SELF_SIGNED|ALTNAME|TLS|SSL/i.test(code) || /certificate|altnames/i.test(String(err));
    return connectFailure(tls ? `connection_failure,TLS_error:_${code}` : 'connection_failure');
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(requestHeaders.toRecord())) {
    if (name.startsWith(':') || options.requestHeadersToRemove.includes(name)) continue;
    headers[name] = value;
  }
  headers[':method'] = requestHeaders.getString(':method') ?? 'GET';
  headers[':path'] = requestHeaders.getString(':path') ?? '/';
  headers[':authority'] = options.autoHostRewrite ? base.host : (requestHeaders.getString(':authority') ?? base.host);
  headers[':scheme'] = options.schemeMatchUpstream ? 'https' : (requestHeaders.getString(':scheme') ?? 'http');
  // The router passes the request's trailers on (Filter::decodeTrailers →
  // UpstreamRequest::acceptTrailersFromRouter, source/common/router/router.cc), and the
  // HTTP/2 codec always encodes them as a final HEADERS frame with END_STREAM
  // (source/common/http/http2/codec_impl.cc, StreamImpl::encodeTrailersBase).
  const requestTrailers = trailers.toRecord();
  const hasTrailers = Object.keys(requestTrailers).length > 0;
  const stream = session.request(headers, { endStream: body.length === 0 && !hasTrailers, waitForTrailers: hasTrailers, signal });
  if (hasTrailers) stream.once('wantTrailers', () => stream.sendTrailers(requestTrailers));
  if (body.length > 0 || hasTrailers) stream.end(body);
  const responseTrailers = new HeaderMap();
  stream.on('trailers', (t: IncomingHttpHeaders) => {
    for (const [name, value] of headerMapOf(t)
      .toProto()
      .map((h) => [h.key ?? '', h.raw_value ?? Buffer.alloc(0)] as const))
      responseTrailers.add(name, value);
  });
  stream.on('close', () => session.close());
  if (options.routeIdleTimeoutMs !== undefined) stream.setTimeout(options.routeIdleTimeoutMs, () => stream.close(h2.NGHTTP2_CANCEL));
  let responseHeaders: IncomingHttpHeaders & { ':status'?: number };
  try {
    responseHeaders = await new Promise((resolve, reject) => {
      stream.once('response', (h) => resolve(h));
      stream.once('error', reject);
      stream.once('close', () => reject(new Error(stream.rstCode === h2.NGHTTP2_CANCEL && options.routeIdleTimeoutMs !== undefined ? 'idle' : 'reset')));
    });
  } catch (err) {
    session.close();
    if ((err as Error).message === 'idle') return idleTimeoutReply();
    return connectFailure('connection_failure');
  }
  const status = Number(responseHeaders[':status'] ?? 0);
  const out = HeaderMap.fromPairs([[':status', String(status)]]);
  for (const [name, value] of Object.entries(responseHeaders)) {
    if (value === undefined || name.startsWith(':') || isHopByHop(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.add(name, String(v));
  }
  const method = headers[':method'];
  const noBody = method === 'HEAD' || status === 204 || status === 304 || out.getString('content-length') === '0';
  if (noBody) stream.resume();
  return { status, headers: out, body: stream as AsyncIterable<Buffer>, endOfStream: noBody, details: 'via_upstream', trailers: () => responseTrailers };
}
