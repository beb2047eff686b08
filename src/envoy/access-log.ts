/**
 * The fields of Envoy's JSON access log line. Joined to the processor's own
 * logs by the gateway's request id, which the processor adds to every
 * response (also to its own local replies). Only fields that cannot carry a
 * secret: no request header but the method and path, and no query string
 * (`%REQ_WITHOUT_QUERY%`), so neither `authorization`, `x-api-key` nor a key
 * pasted into a URL reaches the log.
 */
export function accessLogFormat(): Record<string, string> {
  return {
    time: '%START_TIME%',
    request_id: '%RESP(X-GW-REQUEST-ID)%',
    method: '%REQ(:METHOD)%',
    path: '%REQ_WITHOUT_QUERY(:PATH)%',
    protocol: '%PROTOCOL%',
    status: '%RESPONSE_CODE%',
    response_flags: '%RESPONSE_FLAGS%',
    response_code_details: '%RESPONSE_CODE_DETAILS%',
    duration_ms: '%DURATION%',
    request_duration_ms: '%REQUEST_DURATION%',
    response_duration_ms: '%RESPONSE_DURATION%',
    upstream_cluster: '%UPSTREAM_CLUSTER%',
    upstream_host: '%UPSTREAM_HOST%',
    upstream_failure: '%UPSTREAM_TRANSPORT_FAILURE_REASON%',
    bytes_received: '%BYTES_RECEIVED%',
    bytes_sent: '%BYTES_SENT%',
    client_address: '%DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT%',
  };
}
