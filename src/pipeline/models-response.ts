import { CATALOGUE } from '../models/catalogue.js';
import { PROVIDERS } from '../models/providers.js';
import type { ServedModels } from '../models/served-models.js';
import { usableIds } from '../policy/authorize-model.js';
import type { CompanyRecords } from '../state/records.js';

const CREATED = new Map(CATALOGUE.map((m) => [m.provider === 'vendor' ? m.id : `${m.provider}:${m.id}`, m]));

/** GET /v1/models: the models this company can use, in the upstream's list shape. */
export async function modelsListBody(company: CompanyRecords, served: ServedModels): Promise<string> {
  const data: Array<{ type: 'model'; id: string; display_name: string; created_at: string }> = [];
  for (const provider of PROVIDERS) {
    for (const id of await usableIds(company, provider, served)) {
      const listed = CREATED.get(id);
      data.push({ type: 'model', id, display_name: listed?.displayName ?? id, created_at: listed?.createdAt ?? '1970-01-01T00:00:00Z' });
    }
  }
  return JSON.stringify({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null });
}
