/**
 * The HCM local_reply_config: every answer Envoy makes itself (a codec
 * refusal, a timeout, a circuit breaker, the fail-closed catch-all route, an
 * ext_proc failure) is rewritten into the gateway's error shape, with a fault
 * from the one catalogue.
 *
 * Envoy runs local_reply_config on every local reply, and the processor's
 * immediate_response is one too (the ext_proc filter sends it with
 * sendLocalReply), so that reply must be left as it is: the processor marks
 * it with dynamic metadata in the same ProcessingResponse, which the filter
 * stores before it sends the reply, and the first mapper matches that mark
 * and changes nothing. A provider's answer is never a local reply and never
 * passes here.
 */
import { FAULTS, type Fault } from '../errors/catalogue.js';
import { ENVOY_REPLY_MESSAGES } from '../errors/messages.js';
import { RETRY_ADVICE } from '../errors/retry-advice.js';
import { MAX_HEADERS_COUNT, MAX_REQUEST_HEADERS_KB } from './downstream-limits.js';

/**
 * The dynamic metadata namespace the processor writes its mark into (an
 * ext_proc receiving namespace) and the key inside it. Value: "processor".
 */
export const PROCESSOR_REPLY_NAMESPACE = 'gw.local_reply';
export const PROCESSOR_REPLY_KEY = 'origin';
export const PROCESSOR_REPLY_ORIGIN = 'processor';

/**
 * The headers by which the processor tells Envoy's replies from a provider's
 * (src/extproc/envoy-local-reply.ts); the provider routes remove them from
 * every provider response.
 */
export const ENVOY_REPLY_MARK_HEADERS = ['x-gw-source', 'x-gw-fault'] as const;

/** Response flags of an upstream that could not be reached or reset before its headers. */
const UNREACHABLE_FLAGS = ['UF', 'UH', 'URX', 'UC', 'UR', 'DF', 'UPE'] as const;
/** Envoy's own load shedding: the overload manager and a cluster's circuit breaker. */
const OVERLOAD_FLAGS = ['OM', 'UO'] as const;

/** Status codes mapped one to one; any other 4xx is invalid_request, any other 5xx internal_error. */
const BY_STATUS: ReadonlyArray<readonly [number, Fault]> = [
  [400, 'invalid_request'],
  [404, 'not_found'],
  [408, 'request_timeout'],
  [413, 'request_too_large'],
  [431, 'headers_too_large'],
  [500, 'internal_error'],
  [502, 'upstream_unreachable'],
  [503, 'overloaded'],
  [504, 'gateway_timeout'],
];

function statusIs(op: 'EQ' | 'GE' | 'LE', status: number): object {
  // A RuntimeUInt32 needs a runtime key; nothing sets these, so the default always applies.
  return { status_code_filter: { comparison: { op, value: { default_value: status, runtime_key: `gw.local_reply.status_${op.toLowerCase()}_${status}` } } } };
}

/** The rewrite into our shape: headers first, so the body can quote the id the header carries. */
function ourShape(fault: Fault, filter: object, rewriteStatus?: number): object {
  const message = ENVOY_REPLY_MESSAGES.reply(fault, { maxHeaders: MAX_HEADERS_COUNT, maxHeadersKiB: MAX_REQUEST_HEADERS_KB });
  const header = (key: string, value: string): object => ({ header: { key, value }, append_action: 'OVERWRITE_IF_EXISTS_OR_ADD' });
  return {
    filter,
    ...(rewriteStatus !== undefined ? { status_code: rewriteStatus } : {}),
    headers_to_add: [
      header('x-gw-source', 'gateway'),
      header('x-gw-fault', fault),
      // One fresh id per reply. Envoy evaluates every header value before it sets any, so
      // request-id cannot copy it; the body reads it back from the response header.
      header('x-gw-request-id', '%UNIQUE_ID%'),
      header('x-should-retry', String(RETRY_ADVICE[fault])),
    ],
    body_format_override: {
      json_format: {
        type: 'error',
        error: { type: FAULTS[fault].type, message },
        source: 'gateway',
        fault,
        request_id: '%RESP(X-GW-REQUEST-ID)%',
      },
    },
  };
}

export function localReplyConfig(): object {
  const processorReply = {
    // Matches, and so ends the search, without rewriting anything: no status,
    // body or format override, and no top-level body_format to fall back to.
    filter: {
      metadata_filter: {
        matcher: {
          filter: PROCESSOR_REPLY_NAMESPACE,
          path: [{ key: PROCESSOR_REPLY_KEY }],
          value: { string_match: { exact: PROCESSOR_REPLY_ORIGIN } },
        },
        match_if_key_not_found: false,
      },
    },
  };
  return {
    mappers: [
      processorReply,
      ourShape('upstream_unreachable', { response_flag_filter: { flags: [...UNREACHABLE_FLAGS] } }, FAULTS.upstream_unreachable.status),
      ourShape('overloaded', { response_flag_filter: { flags: [...OVERLOAD_FLAGS] } }, FAULTS.overloaded.status),
      ...BY_STATUS.map(([status, fault]) => ourShape(fault, statusIs('EQ', status))),
      ourShape('invalid_request', { and_filter: { filters: [statusIs('GE', 400), statusIs('LE', 499)] } }),
      ourShape('internal_error', statusIs('GE', 500)),
    ],
  };
}
