import { GatewayError } from '../errors/gateway-error.js';
import { REQUEST_MESSAGES } from '../errors/messages.js';

export function tooLarge(limit: number): GatewayError {
  return new GatewayError('request_too_large', REQUEST_MESSAGES.bodyTooLarge(Math.round(limit / 1024 / 1024)));
}
