import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { ServedModels } from '../../../src/models/served-models.js';
import { modelsListBody, readModelsPage } from '../../../src/pipeline/models-response.js';
import { company, credential } from '../support/records.js';

const IDS = Array.from({ length: 7 }, (_, i) => `model-${i}`);
const records = company({ credentials: [credential({ name: 'd', provider: 'provider_d', baseUrl: 'http://127.0.0.1:1' })] });
const served = new ServedModels(async () => IDS);
const prefixed = IDS.map((id) => `provider_d:${id}`);

async function page(query: string): Promise<{ data: Array<{ id: string }>; has_more: boolean; first_id: string | null; last_id: string | null }> {
  return JSON.parse(await modelsListBody(records, served, query)) as { data: Array<{ id: string }>; has_more: boolean; first_id: string | null; last_id: string | null };
}

describe('GET /v1/models paging', () => {
  it('reads limit (1 to 1000, default 20) and one cursor', () => {
    expect(readModelsPage('')).toEqual({ limit: 20, afterId: null, beforeId: null });
    expect(readModelsPage('?limit=1000&after_id=x')).toEqual({ limit: 1000, afterId: 'x', beforeId: null });
    for (const bad of ['?limit=0', '?limit=1001', '?limit=-1', '?limit=2.5', '?limit=', '?after_id=a&before_id=b']) expect(() => readModelsPage(bad)).toThrow(GatewayError);
  });

  it('pages forward from the start and after an id', async () => {
    expect(await page('?limit=3')).toEqual({ data: expect.any(Array), has_more: true, first_id: prefixed[0], last_id: prefixed[2] });
    expect((await page('?limit=3&after_id=provider_d:model-2')).data.map((m) => m.id)).toEqual(prefixed.slice(3, 6));
    const last = await page('?limit=3&after_id=provider_d:model-5');
    expect(last.data.map((m) => m.id)).toEqual(prefixed.slice(6));
    expect(last.has_more).toBe(false);
  });

  it('takes the page just before a before_id', async () => {
    const back = await page('?limit=3&before_id=provider_d:model-4');
    expect(back.data.map((m) => m.id)).toEqual(prefixed.slice(1, 4));
    expect(back.has_more).toBe(true);
    const start = await page('?limit=3&before_id=provider_d:model-2');
    expect(start.data.map((m) => m.id)).toEqual(prefixed.slice(0, 2));
    expect(start.has_more).toBe(false);
  });

  it('refuses a cursor that is not in the list', async () => {
    await expect(modelsListBody(records, served, '?after_id=nope')).rejects.toThrow(/"nope" is not a model id of this list/);
  });

  it('answers an empty page past the end', async () => {
    expect(await page('?after_id=provider_d:model-6')).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });
});
