import { DEFAULT_API_VERSION, OAUTH_BETA_FLAG } from '../models/providers.js';
import type { CredentialRecord } from '../state/records.js';
import type { HeaderMap } from './types.js';

/**
 * The caller headers a provider needs (DESIGN §4): the API version and beta
 * flags, the body's type, what the caller accepts, who the client is (the
 * SDKs' x-stainless-* metadata, Claude Code's session and app), idempotency
 * and trace context (which trace-headers.ts may still withhold). Every other caller header stays at the gateway, so no
 * caller header can change how the provider authenticates the gateway or
 * what it bills. docs/resilience.md lists the same rule.
 */
export const FORWARDED_CALLER_HEADERS: ReadonlySet<string> = new Set([
  'anthropic-beta',
  'content-type',
  'accept',
  'user-agent',
  'x-app',
  'x-claude-code-session-id',
  'idempotency-key',
  'traceparent',
  'tracestate',
]);
export const FORWARDED_CALLER_PREFIXES: readonly string[] = ['x-stainless-'];

export function isForwardedCallerHeader(name: string): boolean {
  if (FORWARDED_CALLER_HEADERS.has(name)) return true;
  for (const prefix of FORWARDED_CALLER_PREFIXES) if (name.startsWith(prefix)) return true;
  return false;
}

export interface HeaderPlan {
  readonly remove: string[];
  readonly set: Array<readonly [string, string]>;
}

/**
 * Which caller headers go on and what the gateway sets: the caller's
 * credentials, cookies, x-gw-* headers and anything else off the list are
 * removed; the API version goes under the upstream's name; the leased
 * credential is added. accept-encoding is pinned to identity so the relayed
 * bytes can be metered.
 */
export function forwardHeaders(headers: HeaderMap, credential: CredentialRecord, bodyLength: number): HeaderPlan {
  const remove: string[] = [];
  for (const name in headers) if (!isForwardedCallerHeader(name)) remove.push(name);
  const version = headers['anthropic-version'] ?? headers['provider-version'] ?? DEFAULT_API_VERSION;
  const set: Array<readonly [string, string]> = [
    ['anthropic-version', version],
    ['content-length', String(bodyLength)],
    ['accept-encoding', 'identity'],
  ];
  if (credential.authScheme === 'bearer') set.push(['authorization', `Bearer ${credential.secret}`]);
  else set.push(['x-api-key', credential.secret]);
  const beta = headers['anthropic-beta'];
  if (credential.kind === 'subscriptionSeat') {
    const flags = betaFlags(beta);
    if (!flags.includes(OAUTH_BETA_FLAG)) flags.push(OAUTH_BETA_FLAG);
    set.push(['anthropic-beta', flags.join(',')]);
  } else if (beta !== undefined && beta.includes(OAUTH_BETA_FLAG)) {
    // (A header without the flag's text cannot hold the flag: most requests are not split into flags at all.)
    const flags = betaFlags(beta);
    if (flags.includes(OAUTH_BETA_FLAG)) {
      // The OAuth flag switches the provider to bearer authentication: a caller may not choose that for an API key.
      const kept = flags.filter((f) => f !== OAUTH_BETA_FLAG);
      if (kept.length > 0) set.push(['anthropic-beta', kept.join(',')]);
      else remove.push('anthropic-beta');
    }
  }
  return { remove, set };
}

function betaFlags(beta: string | undefined): string[] {
  if (beta === undefined) return [];
  return beta
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
}
