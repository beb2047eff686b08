import { GatewayError } from '../errors/gateway-error.js';
import { MESSAGES } from '../errors/messages.js';
import type { HeaderMap } from '../http/headers.js';
import type { TokenDirectory } from '../state/state.js';
import type { TokenRecord } from '../state/records.js';
import { hashToken, isWellFormedToken } from './token.js';

/** The bearer value of an Authorization header, or null. The scheme is case-insensitive (RFC 9110). */
export function bearerOf(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  const value = authorization.trim();
  if (value.length < 7 || value.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  const token = value.slice(7).trim();
  return token === '' ? null : token;
}

/**
 * Only `Authorization: Bearer gwct_…` authenticates. A malformed token is
 * refused before state is touched; a well-formed one is looked up by its
 * SHA-256 hash, so no comparison of secret values happens anywhere.
 */
export async function authenticate(headers: HeaderMap, state: Pick<TokenDirectory, 'findToken' | 'loaded'>): Promise<TokenRecord> {
  const token = bearerOf(headers.authorization);
  if (token === null) {
    throw new GatewayError('no_session', headers['x-api-key'] !== undefined ? MESSAGES.xApiKeyNeverRead : MESSAGES.noBearer);
  }
  if (!isWellFormedToken(token)) throw new GatewayError('no_session', MESSAGES.malformedToken);
  const record = await state.findToken(hashToken(token));
  if (!record) {
    // After a data loss a live token is missing too: until the writer has rebuilt the state, "unknown" is not "dead".
    if (!(await state.loaded())) throw new GatewayError('unavailable', MESSAGES.stateRebuilding);
    throw new GatewayError('no_session', MESSAGES.noLiveToken);
  }
  return record;
}
