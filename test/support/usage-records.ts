import { randomUUID } from 'node:crypto';
import type { UsageRecord } from '../../src/metering/usage-record.js';
import { cursorOf, type LogsQuery } from '../../src/usage/report.js';

/** A usage record as the pipeline writes one; `i` varies the attribution so reports have groups. */
export function usageRecord(company: string, i: number, overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    request_id: `req_${randomUUID()}`,
    time: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    company,
    address: `user${i % 7}@${company}.example`,
    endpoint: 'messages',
    model: i % 3 === 0 ? 'claude-opus-4-1' : 'claude-sonnet-4-5',
    provider: i % 5 === 0 ? 'provider_a' : 'vendor',
    provider_model: 'claude-sonnet-4-5-20250929',
    credential: 'main',
    input_tokens: 100 + (i % 13),
    output_tokens: 20 + (i % 11),
    cache_creation_input_tokens: i % 4,
    cache_read_input_tokens: i % 6,
    cost_usd: Math.round((0.000123 + (i % 17) * 0.0000071) * 1e9) / 1e9,
    status: 200,
    fault: null,
    stream: i % 2 === 0,
    duration_ms: 100 + (i % 50),
    ttfb_ms: 20,
    outcome: 'complete',
    ...(i % 4 === 0 ? { repo: `github.com/${company}/repo${i % 3}` } : {}),
    ...(i % 5 === 1 ? { application: 'claude-code' } : {}),
    ...(i % 9 === 2 ? { end_user: `customer-${i % 4}` } : {}),
    ...overrides,
  };
}

/** Every request id a Logs read gives, page by page (`pageSize` each), following each page's cursor to the end. */
export async function allLogPages(read: (q: LogsQuery) => Promise<UsageRecord[]>, base: Omit<LogsQuery, 'limit'>, pageSize: number): Promise<string[]> {
  const out: string[] = [];
  let after: LogsQuery['after'];
  for (let page = 0; page < 1_000; page++) {
    const rows = await read({ ...base, limit: pageSize, ...(after ? { after } : {}) });
    out.push(...rows.map((r) => r.request_id));
    const last = rows[rows.length - 1];
    if (rows.length < pageSize || !last) return out;
    after = cursorOf(last);
  }
  throw new Error('paging did not end');
}
