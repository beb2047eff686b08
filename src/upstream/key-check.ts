import { request, type Dispatcher } from 'undici';
import type { KeyCheck } from '../credentials/health-monitor.js';
import { PROVIDER_INFO } from '../models/providers.js';
import { credentialHeaders } from './credential-headers.js';

const TIMEOUT_MS = 10_000;

/**
 * The gateway's own minimal request with a key: GET {baseUrl}{modelListPath}?limit=1 (/v1/models).
 * It costs no tokens, carries nothing a caller chose, and every Anthropic-
 * compatible provider authenticates it like a messages request. 401/403 is
 * evidence against the key; 200 for it; anything else (404 on a runtime
 * without the endpoint, 429, 5xx, no answer) proves nothing either way.
 */
export function httpKeyCheck(dispatcher?: Dispatcher): KeyCheck {
  return async (credential) => {
    const url = new URL(credential.baseUrl.replace(/\/+$/, '') + PROVIDER_INFO[credential.provider].modelListPath);
    url.searchParams.set('limit', '1');
    try {
      const response = await request(url, {
        method: 'GET',
        headers: credentialHeaders(credential),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(dispatcher ? { dispatcher } : {}),
      });
      await response.body.dump();
      const status = response.statusCode;
      if (status === 401 || status === 403) return { verdict: 'rejected', status };
      if (status >= 200 && status < 300) return { verdict: 'accepted', status };
      return { verdict: 'inconclusive', status };
    } catch {
      return { verdict: 'inconclusive', status: null };
    }
  };
}
