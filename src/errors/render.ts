import { FAULTS } from './catalogue.js';
import type { GatewayError } from './gateway-error.js';
import { RETRY_ADVICE } from './retry-advice.js';
import type { LocalResponse } from '../http/headers.js';

/** The error shape of DESIGN §5, identical for every data plane. */
export function renderGatewayError(error: GatewayError, requestId: string): LocalResponse {
  const body = JSON.stringify({
    type: 'error',
    error: { type: FAULTS[error.fault].type, message: error.message },
    source: 'gateway',
    fault: error.fault,
    request_id: requestId,
  });
  const headers: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['x-gw-source', 'gateway'],
    ['x-gw-fault', error.fault],
    ['x-gw-request-id', requestId],
  ];
  // request-id too: the SDKs report a request's id from that header (a provider's answer carries its own).
  headers.push(['request-id', requestId]);
  for (const [name, value] of error.headers) headers.push([name, value]);
  if (!error.headers.some(([name]) => name === 'x-should-retry')) headers.push(['x-should-retry', String(RETRY_ADVICE[error.fault])]);
  return { status: error.status, headers, body };
}
