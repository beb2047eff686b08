import type { Fault } from './catalogue.js';

/**
 * Whether a client's automatic retry can help, per fault, sent as
 * `x-should-retry` on every gateway error. The official SDKs (JavaScript and
 * Python) obey that header before their own status rules (which would retry
 * every 429 and 5xx, twice by default), and wait `retry-after-ms`, else
 * `retry-after`, before a retry. So a retry that cannot succeed is never made
 * (a 429 user_cap after the full queue wait, an exhausted seat window), and
 * one that can is made (a busy pool, the provider unreachable, state briefly
 * gone). A GatewayError may override the default with its own header.
 */
export const RETRY_ADVICE: Readonly<Record<Fault, boolean>> = {
  invalid_request: false,
  no_session: false,
  over_budget: false,
  model_not_allowed: false,
  not_found: false,
  // The head or body came too slowly: a fresh attempt on a better connection may make it.
  request_timeout: true,
  request_too_large: false,
  unsupported_encoding: false,
  expectation_failed: false,
  // Connections from one address over the bound: one closes soon, and the SDK backs off first.
  too_many_connections: true,
  headers_too_large: false,
  // The gateway already queued the request for the queue wait; an immediate retry only queues it again.
  user_cap: false,
  upstream_unreachable: true,
  internal_error: false,
  // Busy credentials free up soon; the exhausted-window case sends x-should-retry: false itself.
  no_capacity: true,
  unavailable: true,
  // Envoy sheds load near its limits; a little later it takes the request again.
  overloaded: true,
  // Nothing arrived for the whole idle timeout (minutes): the same call would most likely wait as long again.
  gateway_timeout: false,
};
