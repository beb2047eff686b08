import { DEFAULT_API_VERSION, OAUTH_BETA_FLAG } from '../models/providers.js';
import type { CredentialRecord } from '../state/records.js';

/** The headers of a request the gateway makes on its own behalf with a company credential. */
export function credentialHeaders(credential: CredentialRecord): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': DEFAULT_API_VERSION, accept: 'application/json' };
  if (credential.authScheme === 'bearer') headers.authorization = `Bearer ${credential.secret}`;
  else headers['x-api-key'] = credential.secret;
  if (credential.kind === 'subscriptionSeat') headers['anthropic-beta'] = OAUTH_BETA_FLAG;
  return headers;
}
