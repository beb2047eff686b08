import { describe, expect, it } from 'vitest';
import { overBudget } from '../../../src/governance/spend-admission.js';

const RESET = Date.UTC(2026, 10, 26);
const CHECK = { counter: 'token:x:d', limitMicros: 10_000, resetAt: RESET, label: 'daily per-token spend limit of $0.01' };
const NOW = RESET - 3_600_000;

describe('402 over_budget', () => {
  it('says the limit is reached when it is spent, with the real reset', () => {
    const error = overBudget(CHECK, NOW, { spentMicros: 12_000, reservedMicros: 100 });
    expect(error.message).toBe('gw: the daily per-token spend limit of $0.01 is reached; it resets at 2026-11-26T00:00:00.000Z');
    expect(error.headers).toEqual([['retry-after', '3600']]);
  });

  it("says when only this request's reservation would pass the limit, with what is spent and reserved", () => {
    const error = overBudget(CHECK, NOW, { spentMicros: 2_500, reservedMicros: 50_000 });
    expect(error.message).toBe(
      "gw: this request would pass the daily per-token spend limit of $0.01: $0.002500 is spent or reserved, and the request's worst case of $0.05 (its body as input plus max_tokens of output) is reserved before it is forwarded; a smaller max_tokens may fit, otherwise the limit resets at 2026-11-26T00:00:00.000Z",
    );
    expect(error.headers).toEqual([['retry-after', '3600']]);
  });

  it('falls back to "reached" when the counter could not be read', () => {
    expect(overBudget(CHECK, NOW).message).toMatch(/is reached; it resets at/);
  });
});
