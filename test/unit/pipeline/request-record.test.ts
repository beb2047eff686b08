import { describe, expect, it } from 'vitest';
import { ServedModels } from '../../../src/models/served-models.js';
import { priceFromBase } from '../../../src/models/price.js';
import { RequestContext } from '../../../src/pipeline/context.js';
import { tracedModelOf, usageRecordOf } from '../../../src/pipeline/request-record.js';
import type { RouteName } from '../../../src/pipeline/routes.js';
import { authorizeModel } from '../../../src/policy/authorize-model.js';
import { emptyUsage } from '../../../src/metering/usage.js';
import { governanceFixture, head, START } from './support.js';

/** A context as the phases leave it: authenticated, the model decided, 100 in / 10 out metered, answered 200. */
async function finished(route: RouteName | null = 'messages', model = 'claude-haiku-4-5'): Promise<RequestContext> {
  const f = await governanceFixture();
  const ctx = new RequestContext('req_9', START, head('POST', '/v1/messages'), route, '');
  ctx.token = f.token;
  ctx.company = f.company;
  ctx.model = { ...(await authorizeModel(model, f.company, new ServedModels(async () => null))), price: priceFromBase(3, 15) };
  ctx.usage = { ...emptyUsage(), input_tokens: 100, output_tokens: 10 };
  ctx.status = 200;
  return ctx;
}

describe('usageRecordOf', () => {
  it('records what was metered, priced, with its timings', async () => {
    const ctx = await finished();
    ctx.stream = true;
    const record = usageRecordOf(ctx, START + 1500, 200, 'complete');
    expect(record).toEqual({
      request_id: 'req_9',
      time: new Date(START).toISOString(),
      company: 'acme',
      address: 'alice@acme.example',
      endpoint: 'messages',
      model: ctx.model?.canonicalId,
      provider: 'vendor',
      provider_model: ctx.model?.forwardId,
      credential: null,
      input_tokens: 100,
      output_tokens: 10,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      // 100 × $3/M + 10 × $15/M.
      cost_usd: 0.00045,
      status: 200,
      fault: null,
      stream: true,
      duration_ms: 1500,
      ttfb_ms: 200,
      outcome: 'complete',
    });
  });

  it('costs nothing when the gateway answered itself, or the route only counts tokens', async () => {
    const refused = await finished();
    refused.fault = 'over_budget';
    refused.status = 402;
    expect(usageRecordOf(refused, START, null, 'gateway_error')).toMatchObject({ cost_usd: 0, fault: 'over_budget', status: 402, input_tokens: 100 });
    const counted = await finished('count_tokens');
    expect(usageRecordOf(counted, START, null, 'complete')).toMatchObject({ endpoint: 'count_tokens', cost_usd: 0, input_tokens: 0, output_tokens: 0 });
  });

  it('adds the requested model when it differs, the attribution labels and the redaction counts', async () => {
    const ctx = await finished('messages', 'Claude-Haiku-4.5');
    ctx.attribution = { repo: 'acme/app', application: 'ci', endUser: 'u-1' };
    ctx.redactions = { 'aws-access-key': 2 };
    expect(usageRecordOf(ctx, START, null, 'complete')).toMatchObject({
      requested_model: 'Claude-Haiku-4.5',
      repo: 'acme/app',
      application: 'ci',
      end_user: 'u-1',
      redactions: { 'aws-access-key': 2 },
    });
    const plain = usageRecordOf(await finished(), START, null, 'complete');
    expect(plain).not.toHaveProperty('requested_model');
    expect(plain).not.toHaveProperty('repo');
    expect(plain).not.toHaveProperty('redactions');
  });

  it('writes no record before authentication or for other routes', async () => {
    const anonymous = await finished();
    anonymous.token = null;
    expect(usageRecordOf(anonymous, START, null, 'complete')).toBeNull();
    expect(usageRecordOf(await finished('models'), START, null, 'complete')).toBeNull();
    expect(usageRecordOf(await finished(null), START, null, 'complete')).toBeNull();
  });
});

describe('tracedModelOf', () => {
  it("names the operation and the request's model for the two model routes only", async () => {
    expect(tracedModelOf(await finished())).toEqual({ operation: 'chat', provider: 'vendor', requestModel: 'claude-haiku-4-5', responseModel: null });
    expect(tracedModelOf(await finished('count_tokens'))).toMatchObject({ operation: 'count_tokens' });
    expect(tracedModelOf(await finished('models'))).toBeNull();
  });
});
