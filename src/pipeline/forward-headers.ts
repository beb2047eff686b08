import { OAUTH_BETA_FLAG } from '../models/providers.js';
import type { CredentialRecord } from '../state/records.js';
import type { HeaderMap } from './types.js';

/** Headers the gateway consumes or replaces; never forwarded as the client sent them. */
const ALWAYS_REMOVED = ['authorization', 'x-api-key', 'cookie', 'provider-version', 'content-length', 'accept-encoding'];
export const DEFAULT_API_VERSION = '2023-06-01';

export interface HeaderPlan {
  readonly remove: string[];
  readonly set: Array<readonly [string, string]>;
}

/**
 * The header rules of DESIGN §4: strip the caller's credentials (authorization,
 * proxy-authorization, x-api-key), cookies and every x-gw-* header; keep
 * everything else the client sent; send the API version under the upstream's
 * name; add the leased credential.
 * accept-encoding is pinned to identity so the relayed bytes can be metered.
 */
export function forwardHeaders(headers: HeaderMap, credential: CredentialRecord, bodyLength: number): HeaderPlan {
  const remove = [...ALWAYS_REMOVED];
  for (const name of Object.keys(headers)) if (name.startsWith('x-gw-')) remove.push(name);
  // Credentials meant for this hop (a client configured with the gateway as its proxy): never relayed.
  if (headers['proxy-authorization'] !== undefined) remove.push('proxy-authorization');
  const version = headers['anthropic-version'] ?? headers['provider-version'] ?? DEFAULT_API_VERSION;
  const set: Array<readonly [string, string]> = [
    ['anthropic-version', version],
    ['content-length', String(bodyLength)],
    ['accept-encoding', 'identity'],
  ];
  if (credential.authScheme === 'bearer') set.push(['authorization', `Bearer ${credential.secret}`]);
  else set.push(['x-api-key', credential.secret]);
  if (credential.kind === 'subscriptionSeat') {
    const beta = headers['anthropic-beta'];
    const flags = beta === undefined ? [] : beta.split(',').map((f) => f.trim()).filter((f) => f !== '');
    if (!flags.includes(OAUTH_BETA_FLAG)) flags.push(OAUTH_BETA_FLAG);
    set.push(['anthropic-beta', flags.join(',')]);
  }
  return { remove, set };
}
