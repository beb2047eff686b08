/**
 * Envoy's access log formatter for a `log_format.json_format` dictionary
 * (SubstitutionFormatString), for the command operators the generated
 * bootstrap uses. The format is compiled once at harness start and every
 * operator it names must be modelled here: an unknown one throws instead of
 * printing "-", so a generator change cannot produce a line the harness
 * only pretends to write.
 *
 * Rendering, from api/envoy/config/core/v3/substitution_format_string.proto
 * (json_format: "Values are rendered as strings, numbers, or boolean values
 * as appropriate") and the operator reference
 * https://www.envoyproxy.io/docs/envoy/v1.39.6/configuration/observability/access_log/usage
 * ("For typed JSON logs unset values are represented as null values"): a
 * value that is exactly one operator keeps the operator's type (numbers for
 * the byte counts, durations and the response code; null when unset); a
 * value mixing text and operators is a string with "-" for unset parts.
 */
import type { HeaderMap } from './header-map.js';

/** What Envoy's StreamInfo knows about one finished request, as the harness records it. */
export interface StreamFacts {
  startTime: Date;
  /** Request headers as the filters left them (Envoy logs the final request header map). */
  requestHeaders: HeaderMap;
  /** Response headers sent downstream; undefined if none were. */
  responseHeaders: HeaderMap | undefined;
  protocol: string;
  /** 0 when no response headers reached the client. */
  responseCode: number;
  responseCodeDetails: string;
  responseFlags: string[];
  /** Milliseconds since startTime. */
  lastDownstreamTxMs: number;
  lastDownstreamRxMs: number | undefined;
  firstUpstreamRxMs: number | undefined;
  upstreamCluster: string | undefined;
  /** The resolved upstream address, ip:port. */
  upstreamHost: string | undefined;
  upstreamTransportFailureReason: string | undefined;
  bodyBytesReceived: number;
  bodyBytesSent: number;
  downstreamRemoteAddress: string;
}

type Value = string | number | null;
type Operator = (facts: StreamFacts) => Value;

function header(map: HeaderMap | undefined, spec: string, operator: string): Value {
  // REQ(X?Y):Z / RESP(X?Y):Z: header X, else Y; Z truncates. Names are case-insensitive.
  const match = /^(:?[^?):]+)(?:\?(:?[^?):]+))?$/.exec(spec);
  if (!match) throw new Error(`envoy-harness: cannot read the header operator %${operator}(${spec})%`);
  const names = [match[1], match[2]].filter((n): n is string => n !== undefined).map((n) => n.toLowerCase());
  for (const name of names) {
    const value = map?.getString(name);
    if (value !== undefined) return value;
  }
  return null;
}

function pathWithoutQuery(value: Value): Value {
  return typeof value === 'string' ? (value.split('?')[0] as string) : value;
}

const ms = (value: number | undefined): Value => (value === undefined ? null : Math.floor(value));

/**
 * Operators without arguments. Each line cites the operator's entry in the
 * access log usage page above (section "Command Operators").
 */
const PLAIN: Record<string, Operator> = {
  // %START_TIME%: request start; the default format is %Y-%m-%dT%H:%M:%E3SZ (UTC, milliseconds).
  START_TIME: (f) => f.startTime.toISOString(),
  // %PROTOCOL%: "HTTP/1.1", "HTTP/2" or "HTTP/3".
  PROTOCOL: (f) => f.protocol,
  // %RESPONSE_CODE%: numeric; 0 means no response headers were sent (client went away).
  RESPONSE_CODE: (f) => f.responseCode,
  // %RESPONSE_FLAGS%: short flags joined by ","; "-" when none
  // (source/common/stream_info/utility.cc ResponseFlagUtils::toShortString returns NONE).
  RESPONSE_FLAGS: (f) => (f.responseFlags.length > 0 ? f.responseFlags.join(',') : '-'),
  // %RESPONSE_CODE_DETAILS%: who set the response code and why (via_upstream, direct_response, overload...).
  RESPONSE_CODE_DETAILS: (f) => f.responseCodeDetails || null,
  // %DURATION%: start to the last byte out, ms.
  DURATION: (f) => ms(f.lastDownstreamTxMs),
  // %REQUEST_DURATION%: start to the last request byte received from downstream, ms.
  REQUEST_DURATION: (f) => ms(f.lastDownstreamRxMs),
  // %RESPONSE_DURATION%: start to the first byte read from the upstream host, ms.
  RESPONSE_DURATION: (f) => ms(f.firstUpstreamRxMs),
  // %UPSTREAM_CLUSTER%: the cluster the upstream host belongs to.
  UPSTREAM_CLUSTER: (f) => f.upstreamCluster ?? null,
  // %UPSTREAM_HOST%: the upstream host's address (ip:port for an IP address).
  UPSTREAM_HOST: (f) => f.upstreamHost ?? null,
  // %UPSTREAM_TRANSPORT_FAILURE_REASON%: the transport socket's failure (a TLS handshake error, say).
  UPSTREAM_TRANSPORT_FAILURE_REASON: (f) => f.upstreamTransportFailureReason ?? null,
  // %BYTES_RECEIVED%: body bytes received (HTTP).
  BYTES_RECEIVED: (f) => f.bodyBytesReceived,
  // %BYTES_SENT%: body bytes sent (HTTP).
  BYTES_SENT: (f) => f.bodyBytesSent,
  // %DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%: the peer's address (with use_remote_address, the TCP peer).
  DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT: (f) => f.downstreamRemoteAddress,
};

/** Operators with a header argument: %NAME(X?Y)% with an optional :Z truncation. */
const WITH_HEADER: Record<string, (f: StreamFacts, spec: string) => Value> = {
  // %REQ(X?Y):Z%: a request header (REQUEST_HEADER is its newer spelling).
  REQ: (f, spec) => header(f.requestHeaders, spec, 'REQ'),
  REQUEST_HEADER: (f, spec) => header(f.requestHeaders, spec, 'REQUEST_HEADER'),
  // %RESP(X?Y):Z%: a response header.
  RESP: (f, spec) => header(f.responseHeaders, spec, 'RESP'),
  RESPONSE_HEADER: (f, spec) => header(f.responseHeaders, spec, 'RESPONSE_HEADER'),
  // %REQ_WITHOUT_QUERY(X?Y):Z%: like REQ, with the query string removed.
  REQ_WITHOUT_QUERY: (f, spec) => pathWithoutQuery(header(f.requestHeaders, spec, 'REQ_WITHOUT_QUERY')),
};

const TOKEN = /%([A-Z_]+)(?:\(([^)]*)\))?(?::(\d+))?%/g;

function compileOperator(name: string, arg: string | undefined, truncate: string | undefined): Operator {
  const plain = PLAIN[name];
  const withHeader = WITH_HEADER[name];
  let op: Operator;
  if (plain && arg === undefined) op = plain;
  else if (withHeader && arg !== undefined) {
    header(undefined, arg, name); // refuse an unreadable argument now, not on the first request
    op = (f) => withHeader(f, arg);
  } else throw new Error(`envoy-harness: access log operator %${name}${arg === undefined ? '' : `(${arg})`}% is not modelled`);
  if (truncate === undefined) return op;
  const limit = Number(truncate);
  return (f) => {
    const value = op(f);
    return typeof value === 'string' ? value.slice(0, limit) : value;
  };
}

type Compiled = (facts: StreamFacts) => unknown;

function compileValue(template: unknown, key: string): Compiled {
  if (template !== null && typeof template === 'object' && !Array.isArray(template)) {
    const entries = Object.entries(template).map(([k, v]) => [k, compileValue(v, `${key}.${k}`)] as const);
    return (f) => Object.fromEntries(entries.map(([k, c]) => [k, c(f)]));
  }
  if (typeof template !== 'string') throw new Error(`envoy-harness: json_format value at ${key} is not a string`);
  const parts: Array<string | Operator> = [];
  let last = 0;
  for (const m of template.matchAll(TOKEN)) {
    if (m.index > last) parts.push(template.slice(last, m.index));
    parts.push(compileOperator(m[1] as string, m[2], m[3]));
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  if (parts.some((p) => typeof p === 'string' && p.includes('%'))) {
    throw new Error(`envoy-harness: json_format value at ${key} has a "%" the harness cannot read: ${template}`);
  }
  const only = parts.length === 1 ? parts[0] : undefined;
  if (typeof only === 'function') return only;
  return (f) => parts.map((p) => (typeof p === 'string' ? p : (p(f) ?? '-'))).join('');
}

/** Compiles a json_format dictionary into the function that writes one access log line. */
export function compileJsonFormat(format: Record<string, unknown>): (facts: StreamFacts) => string {
  const compiled = compileValue(format, 'json_format');
  return (facts) => JSON.stringify(compiled(facts));
}
