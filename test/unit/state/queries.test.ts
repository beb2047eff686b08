import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { sameModel } from '../../../src/state/queries.js';

const record = (model: string | null, requested?: string): UsageRecord => ({
  request_id: 'req_1',
  time: '2026-11-25T00:00:00.000Z',
  company: 'acme',
  address: 'alice@acme.example',
  endpoint: 'messages',
  model,
  ...(requested !== undefined ? { requested_model: requested } : {}),
  provider: 'vendor',
  provider_model: model,
  credential: 'k',
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cost_usd: 0,
  status: 200,
  fault: null,
  stream: false,
  duration_ms: 1,
  ttfb_ms: null,
  outcome: 'complete',
});

describe('the logs model filter', () => {
  it('finds a model by its canonical id however the filter spells it', () => {
    expect(sameModel(record('claude-sonnet-4-5'), 'Claude-Sonnet-4.5')).toBe(true);
    expect(sameModel(record('claude-sonnet-4-5'), 'claude-haiku-4-5')).toBe(false);
  });

  it("finds it by the caller's spelling too, and never matches a record without a model", () => {
    expect(sameModel(record('claude-sonnet-4-5', 'my-alias'), 'MY.ALIAS')).toBe(true);
    expect(sameModel(record(null), 'claude-sonnet-4-5')).toBe(false);
  });
});
