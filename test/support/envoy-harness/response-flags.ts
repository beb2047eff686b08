/**
 * %RESPONSE_FLAGS% for the outcomes the harness produces, from the response
 * code details it records. Short names and meanings:
 * https://www.envoyproxy.io/docs/envoy/v1.39.6/configuration/observability/access_log/usage
 * (section RESPONSE_FLAGS); the flag each Envoy path sets is named beside it.
 */
export function responseFlags(details: string, clientGone: boolean): string[] {
  const flags: string[] = [];
  // The overload manager's stop_accepting_requests: CoreResponseFlag::OverloadManager.
  if (details === 'overload') flags.push('OM');
  // No route matched (a direct_response route is a match and sets no flag).
  if (details === 'route_not_found') flags.push('NR');
  // No host to send to (a dynamic forward proxy route without its host header).
  if (details === 'no_healthy_upstream') flags.push('UH');
  // Connecting to the upstream failed (refused, TLS handshake): UpstreamConnectionFailure.
  if (details.startsWith('upstream_reset_before_response_started{connection_failure')) flags.push('UF');
  // The route/stream idle timer fired: StreamIdleTimeout.
  if (details === 'stream_idle_timeout') flags.push('SI');
  // The upstream reset the stream after the response began: UpstreamRemoteReset.
  if (details === 'upstream_reset_after_response_started') flags.push('UR');
  // The codec refused the request (too many headers): DownstreamProtocolError.
  if (details.startsWith('http1.')) flags.push('DPE');
  // The client went away before the response ended: DownstreamConnectionTermination.
  if (clientGone) flags.push('DC');
  return flags;
}

/**
 * %UPSTREAM_TRANSPORT_FAILURE_REASON%: the transport socket's reason, which
 * Envoy also appends to the connect-failure details (TLS_error:...).
 */
export function transportFailureReason(details: string): string | undefined {
  const match = /^upstream_reset_before_response_started\{connection_failure,(.+)\}$/.exec(details);
  return match?.[1];
}
