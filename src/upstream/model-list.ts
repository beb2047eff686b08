import { request, type Dispatcher } from 'undici';
import { PROVIDER_INFO } from '../models/providers.js';
import type { ModelListFetcher } from '../models/served-models.js';
import type { CredentialRecord } from '../state/records.js';
import { credentialHeaders } from './credential-headers.js';

const MAX_PAGES = 10;
const TIMEOUT_MS = 5_000;

/**
 * GET {baseUrl}{modelListPath} (/v1/models) with a company credential, following the
 * upstream's pagination. Any failure (no such endpoint on a local runtime,
 * a timeout, a bad shape) means "no list": requests then go through and the
 * provider answers for itself.
 */
export function httpModelListFetcher(dispatcher?: Dispatcher): ModelListFetcher<CredentialRecord> {
  return async (credential: CredentialRecord) => {
    const ids: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = new URL(credential.baseUrl.replace(/\/+$/, '') + PROVIDER_INFO[credential.provider].modelListPath);
      url.searchParams.set('limit', '1000');
      if (after) url.searchParams.set('after_id', after);
      const headers = credentialHeaders(credential);
      const response = await request(url, {
        method: 'GET',
        headers,
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(dispatcher ? { dispatcher } : {}),
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        return null;
      }
      const body = (await response.body.json()) as { data?: unknown; has_more?: unknown; last_id?: unknown };
      if (!Array.isArray(body.data)) return null;
      for (const entry of body.data) {
        const id = (entry as { id?: unknown } | null)?.id;
        if (typeof id === 'string' && id !== '') ids.push(id);
      }
      if (body.has_more !== true || typeof body.last_id !== 'string') return ids;
      after = body.last_id;
    }
    return ids;
  };
}
