import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import { GATEWAY_MESSAGES } from '../errors/messages.js';
import { UnreadableRecord } from '../state/record-version.js';
import type { PipelineEvents } from './events.js';

/** State failures fail closed: 503 unavailable, never an unauthenticated pass. */
export async function failClosed<T>(events: PipelineEvents, operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isGatewayError(error)) throw error;
    events.stateError(operation, error);
    // A record this build cannot read is never taken for absent (401) or for what it seems (a wrong decision).
    if (error instanceof UnreadableRecord && error.reason === 'newer') throw new GatewayError('unavailable', GATEWAY_MESSAGES.stateNewer);
    throw new GatewayError('unavailable', GATEWAY_MESSAGES.stateUnreachable);
  }
}

/** State work nobody waits for (a renewal, a late release): a failure is reported, never thrown. */
export function inBackground(events: PipelineEvents, operation: string, work: Promise<void>): void {
  work.catch((error: unknown) => events.stateError(operation, error));
}
