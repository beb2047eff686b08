// One usage record as the data plane writes it, for the usage benchmarks: company `company`, the i-th of a run
// (addresses, models, repositories and cache reads cycle with i), written at `time`.
import { randomUUID } from 'node:crypto';

export function benchUsageRecord(company, i, time) {
  return {
    request_id: `req_${randomUUID()}`,
    time,
    company,
    address: `user${i % 50}@${company}.example`,
    endpoint: 'messages',
    model: i % 3 ? 'claude-sonnet-4-5' : 'claude-haiku-4-5',
    provider: 'vendor',
    provider_model: 'claude-sonnet-4-5-20250929',
    credential: 'main',
    input_tokens: 1000 + (i % 100),
    output_tokens: 200 + (i % 50),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: i % 500,
    cost_usd: 0.0042,
    status: 200,
    fault: null,
    stream: true,
    duration_ms: 900,
    ttfb_ms: 300,
    outcome: 'complete',
    repo: `github.com/${company}/app${i % 5}`,
    application: 'claude-code',
  };
}
