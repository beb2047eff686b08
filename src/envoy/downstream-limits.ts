/**
 * The bounds Envoy puts on each caller connection and request, chosen to
 * match what `gw serve` enforces itself (src/config/serve-config.ts,
 * src/pipeline/config.ts), so both data planes refuse the same slow or
 * oversized callers. Envoy has no per-client-address connection limit and no
 * upload rate floor; docs/extproc.md says what stands in for them.
 */
import { DEFAULT_CONNECTION_LIMITS } from '../config/serve-config.js';
import { DEFAULT_PIPELINE_CONFIG } from '../pipeline/config.js';

/**
 * HCM request_headers_timeout: the head must arrive within this from its first
 * byte (gw serve's GW_HEADERS_TIMEOUT_MS default). Envoy answers 408.
 */
export const REQUEST_HEADERS_TIMEOUT_SECONDS = DEFAULT_CONNECTION_LIMITS.headersTimeoutMs / 1000;

/**
 * HCM request_timeout: the whole request must be received (and pass the
 * decoder filters, so the processor's decision and the upstream connect are
 * inside it) within this (gw serve's GW_REQUEST_TIMEOUT_MS default). Envoy
 * disarms it once the request has gone upstream or the response has begun,
 * so it never bounds a provider's answer, however long the model writes.
 */
export const REQUEST_TIMEOUT_SECONDS = DEFAULT_CONNECTION_LIMITS.requestTimeoutMs / 1000;

/**
 * Envoy's codec limits sit above the processor's (100 fields, 32 KiB of
 * fields), with the same 16 KiB of room for the request line and framing that
 * gw serve gives Node's parser: the processor, which counts exactly as gw
 * serve does, normally answers 431 itself; Envoy's own 431 is the backstop for
 * heads too large to pass to it at all.
 */
export const MAX_REQUEST_HEADERS_KB = Math.ceil(DEFAULT_PIPELINE_CONFIG.maxRequestHeaderBytes / 1024) + 16;
/** Room for the pseudo-headers and the headers Envoy adds before the processor counts. */
export const MAX_HEADERS_COUNT = DEFAULT_PIPELINE_CONFIG.maxRequestHeaders + 20;

/**
 * Envoy's listener connection limit is a runtime value, not a Listener field:
 * `envoy.resource_limits.listener.<listener name>.connection_limit`. Past it a
 * new connection is closed at once (downstream_cx_overflow), without an HTTP
 * answer. It counts every client together: Envoy core has no limit per
 * client address.
 */
export function listenerConnectionLimitKey(listener: string): string {
  return `envoy.resource_limits.listener.${listener}.connection_limit`;
}

/**
 * Connections the caller listener holds open at once: twice the requests the
 * clusters admit, so idle keep-alive connections beside a full load still fit.
 */
export function maxDownstreamConnections(maxConcurrentRequests: number): number {
  return Math.min(2 * maxConcurrentRequests, 0xffff_ffff);
}

/** The HCM fields that bound one caller request's head and its receipt. */
export function downstreamRequestLimits(): Record<string, unknown> {
  return {
    request_headers_timeout: `${REQUEST_HEADERS_TIMEOUT_SECONDS}s`,
    request_timeout: `${REQUEST_TIMEOUT_SECONDS}s`,
    max_request_headers_kb: MAX_REQUEST_HEADERS_KB,
    common_http_protocol_options: { max_headers_count: MAX_HEADERS_COUNT },
  };
}
