import { FAULTS, type Fault } from './catalogue.js';

/**
 * A decision to answer with a gateway error. Thrown inside the pipeline and
 * rendered by the adapters through renderGatewayError, so both data planes
 * produce identical bytes.
 */
export class GatewayError extends Error {
  readonly fault: Fault;
  readonly status: number;
  /** Extra response headers, e.g. retry-after for over_budget. */
  readonly headers: ReadonlyArray<readonly [string, string]>;

  constructor(fault: Fault, message: string, headers: ReadonlyArray<readonly [string, string]> = []) {
    // The prefix is part of the contract: callers tell our errors from a provider's by it.
    super(message.startsWith('gw:') ? message : `gw: ${message}`);
    this.fault = fault;
    this.status = FAULTS[fault].status;
    this.headers = headers;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
