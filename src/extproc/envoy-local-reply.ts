import { FAULTS, type Fault } from '../errors/catalogue.js';
import type { HeaderMap } from '../pipeline/types.js';

/**
 * The ext_proc filter also sees the response headers of Envoy's own local
 * replies made after the processor decided (a provider that cannot be
 * reached, an idle timeout). local_reply_config has already put those in our
 * shape (src/envoy/local-reply.ts), and the provider routes remove
 * x-gw-source and x-gw-fault from every provider response before the filter
 * sees it, so on this plane `x-gw-source: gateway` with a catalogued fault
 * can only be Envoy's reply. It is the gateway's answer, not a provider's:
 * it must not be tagged as `x-gw-source: upstream`.
 */
export function envoyLocalReplyFault(headers: HeaderMap): Fault | null {
  if (headers['x-gw-source'] !== 'gateway') return null;
  const fault = headers['x-gw-fault'];
  return fault !== undefined && Object.hasOwn(FAULTS, fault) ? (fault as Fault) : null;
}

/**
 * Envoy's reply body with `request_id` set to the gateway's id for the
 * request; null when the body is not a JSON object (then it is left as is).
 */
export function withRequestId(body: Buffer, requestId: string): Buffer | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  return Buffer.from(JSON.stringify({ ...(parsed as Record<string, unknown>), request_id: requestId }));
}
