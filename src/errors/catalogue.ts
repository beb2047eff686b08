/**
 * The one catalogue of gateway errors. Every error the gateway itself
 * produces has a fault code here with its HTTP status and the upstream error
 * type that SDKs understand (so they print our message). docs/errors.md is
 * checked against this table by a unit test.
 */
export const FAULTS = {
  invalid_request: { status: 400, type: 'invalid_request_error', when: 'body not JSON, required field missing or mistyped, bad header value, a duplicated header that must appear once' },
  no_session: { status: 401, type: 'authentication_error', when: 'no bearer, malformed, unknown or revoked token' },
  over_budget: { status: 402, type: 'billing_error', when: 'a spend limit stopped the request; `retry-after` is the seconds until the window really resets' },
  model_not_allowed: { status: 403, type: 'permission_error', when: 'provider not connected, model not served, listed model switched off, unknown bare id' },
  not_found: { status: 404, type: 'not_found_error', when: 'unknown route' },
  request_timeout: { status: 408, type: 'timeout_error', when: 'the request head or body did not arrive within the time limit or above the minimum rate' },
  request_too_large: { status: 413, type: 'request_too_large', when: 'body over the size limit' },
  unsupported_encoding: { status: 415, type: 'invalid_request_error', when: 'a `Content-Encoding` other than gzip, deflate, br or identity, or a body that does not decode' },
  expectation_failed: { status: 417, type: 'invalid_request_error', when: 'an `Expect` header other than `100-continue`' },
  too_many_connections: { status: 429, type: 'rate_limit_error', when: 'more open connections from one address than the gateway accepts' },
  headers_too_large: { status: 431, type: 'invalid_request_error', when: 'more request headers, or more header bytes, than the gateway accepts' },
  user_cap: { status: 429, type: 'rate_limit_error', when: "the caller's concurrency cap did not clear within the queue wait" },
  upstream_unreachable: { status: 502, type: 'api_error', when: 'the provider could not be reached or reset before answering' },
  internal_error: { status: 500, type: 'api_error', when: 'a defect in the gateway; nothing was forwarded' },
  no_capacity: { status: 503, type: 'overloaded_error', when: 'no credential could take the request; no `retry-after`' },
  unavailable: { status: 503, type: 'api_error', when: 'the gateway cannot reach its state (fails closed)' },
  overloaded: { status: 503, type: 'overloaded_error', when: "Envoy in front of the gateway is at one of its own limits (overload manager, a cluster's circuit breaker)" },
  gateway_timeout: { status: 504, type: 'timeout_error', when: 'no byte from the provider, or no answer from the processor, within the timeout (Envoy plane)' },
} as const;

export type Fault = keyof typeof FAULTS;
