import { GatewayError } from '../errors/gateway-error.js';
import { REQUEST_MESSAGES } from '../errors/messages.js';
import { CATALOGUE } from '../models/catalogue.js';
import { callerModelId, PROVIDERS } from '../models/providers.js';
import type { ServedModels } from '../models/served-models.js';
import { usableIds } from '../policy/authorize-model.js';
import type { CompanyRecords, CredentialRecord } from '../state/records.js';

const CREATED = new Map(CATALOGUE.map((m) => [callerModelId(m.provider, m.id), m]));

/** The upstream's paging defaults: 20 a page, at most 1000. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 1000;

export interface ModelsPage {
  readonly limit: number;
  readonly afterId: string | null;
  readonly beforeId: string | null;
}

/** `limit`, `after_id` and `before_id` of the query string, as the upstream API takes them. */
export function readModelsPage(query: string): ModelsPage {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  const rawLimit = params.get('limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== null) {
    limit = /^\d{1,7}$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new GatewayError('invalid_request', REQUEST_MESSAGES.listLimit(MAX_LIMIT));
  }
  const afterId = params.get('after_id');
  const beforeId = params.get('before_id');
  if (afterId !== null && beforeId !== null) throw new GatewayError('invalid_request', REQUEST_MESSAGES.listOneCursor);
  return { limit, afterId, beforeId };
}

/** GET /v1/models: the models this company can use, in the upstream's list shape and paging. */
export async function modelsListBody(company: CompanyRecords, served: ServedModels<CredentialRecord>, query = ''): Promise<string> {
  const page = readModelsPage(query);
  const all: Array<{ type: 'model'; id: string; display_name: string; created_at: string }> = [];
  for (const provider of PROVIDERS) {
    for (const id of await usableIds(company, provider, served)) {
      const listed = CREATED.get(id);
      all.push({ type: 'model', id, display_name: listed?.displayName ?? id, created_at: listed?.createdAt ?? '1970-01-01T00:00:00Z' });
    }
  }
  let start = 0;
  let end = all.length;
  const cursor = page.afterId ?? page.beforeId;
  if (cursor !== null) {
    const at = all.findIndex((m) => m.id === cursor);
    if (at === -1) throw new GatewayError('invalid_request', REQUEST_MESSAGES.listUnknownCursor(cursor.slice(0, 256)));
    if (page.afterId !== null) start = at + 1;
    else end = at;
  }
  // after_id (or no cursor) pages forward from the start; before_id takes the page just before the cursor.
  const data = page.beforeId !== null ? all.slice(Math.max(start, end - page.limit), end) : all.slice(start, Math.min(end, start + page.limit));
  const hasMore = page.beforeId !== null ? end - data.length > 0 : start + data.length < end;
  return JSON.stringify({ data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
}
