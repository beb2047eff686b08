import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../../src/errors/catalogue.js';

const FAULT_NAMES = Object.keys(FAULTS) as Fault[];
import { RETRY_ADVICE } from '../../../src/errors/retry-advice.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { renderGatewayError } from '../../../src/errors/render.js';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'errors.md'), 'utf8');

function documentedRows(): Array<{ status: number; fault: string; type: string; when: string }> {
  return DOC.split('\n')
    .filter((line) => /^\| \d{3} \|/.test(line))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      return { status: Number(cells[0]), fault: (cells[1] ?? '').replaceAll('`', ''), type: (cells[2] ?? '').replaceAll('`', ''), when: cells[3] ?? '' };
    });
}

describe('error catalogue', () => {
  it('agrees with docs/errors.md row for row', () => {
    const rows = documentedRows();
    expect(rows.map((r) => r.fault).sort()).toEqual(Object.keys(FAULTS).sort());
    for (const row of rows) {
      const entry = FAULTS[row.fault as keyof typeof FAULTS];
      expect({ status: entry.status, type: entry.type, when: entry.when }).toEqual({ status: row.status, type: row.type, when: row.when });
    }
  });

  it('keeps the statuses of the specification', () => {
    expect(FAULTS.no_session.status).toBe(401);
    expect(FAULTS.model_not_allowed.status).toBe(403);
    expect(FAULTS.over_budget.status).toBe(402);
    expect(FAULTS.user_cap.status).toBe(429);
    expect(FAULTS.no_capacity.status).toBe(503);
  });

  it('renders the body and headers of DESIGN §5, with the gw: prefix always present', () => {
    const rendered = renderGatewayError(new GatewayError('over_budget', 'daily limit reached', [['retry-after', '3600']]), 'req_1');
    expect(rendered.status).toBe(402);
    expect(JSON.parse(rendered.body)).toEqual({
      type: 'error',
      error: { type: 'billing_error', message: 'gw: daily limit reached' },
      source: 'gateway',
      fault: 'over_budget',
      request_id: 'req_1',
    });
    expect(rendered.headers).toEqual([
      ['content-type', 'application/json'],
      ['x-gw-source', 'gateway'],
      ['x-gw-fault', 'over_budget'],
      ['x-gw-request-id', 'req_1'],
      ['request-id', 'req_1'],
      ['retry-after', '3600'],
      ['x-should-retry', 'false'],
    ]);
  });

  it('[S7-a] gives retry advice on every fault, and lets an error override it', () => {
    for (const fault of FAULT_NAMES) {
      const advice = renderGatewayError(new GatewayError(fault, 'x'), 'req_2').headers.filter(([name]) => name === 'x-should-retry');
      expect(advice).toEqual([['x-should-retry', String(RETRY_ADVICE[fault])]]);
    }
    expect(RETRY_ADVICE.user_cap).toBe(false);
    expect(RETRY_ADVICE.no_capacity).toBe(true);
    const exhausted = renderGatewayError(new GatewayError('no_capacity', 'x', [['x-should-retry', 'false']]), 'req_3').headers;
    expect(exhausted.filter(([name]) => name === 'x-should-retry')).toEqual([['x-should-retry', 'false']]);
  });

  it('documents the retry advice of every fault in docs/errors.md', () => {
    const section = DOC.slice(DOC.indexOf('## Retry advice'));
    for (const fault of FAULT_NAMES) expect(section).toMatch(new RegExp(`\\| \`${fault}\` \\| \`${RETRY_ADVICE[fault]}\``));
  });
});
