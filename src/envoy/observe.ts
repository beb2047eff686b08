/**
 * The observing ext_proc filter (`gw envoy-config --observe-response-body`).
 * Envoy runs a second ext_proc filter in observability_mode after the
 * deciding one: it sends the request headers (as the deciding filter left
 * them), the response headers and every response body chunk to the
 * processor and never waits for an answer, so no chunk of a stream is held
 * for a round trip. The two gRPC streams of one request meet in the
 * processor through OBSERVE_ID_HEADER, which the deciding answer sets on the
 * request and the router removes before the provider sees it.
 */

/** Set by the processor in its request answer; read from the observing stream's request headers. */
export const OBSERVE_ID_HEADER = 'x-gw-observe-id';

/** gRPC initial metadata (the filters' grpc_service.initial_metadata) telling the processor which filter a stream is. */
export const EXTPROC_ROLE_METADATA = 'x-gw-ext-proc-role';
export const EXTPROC_ROLES = Object.freeze({
  /** The deciding filter of a listener that also has the observing filter. */
  decideObserved: 'decide-observed',
  observe: 'observe',
} as const);

export const OBSERVE_FILTER = 'envoy.filters.http.ext_proc/observe';
