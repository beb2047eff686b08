import { GatewayError } from '../errors/gateway-error.js';

export function tooLarge(limit: number): GatewayError {
  return new GatewayError('request_too_large', `gw: the request body is larger than the gateway's limit of ${Math.round(limit / 1024 / 1024)} MiB`);
}
