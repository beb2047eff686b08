import { describe, expect, it } from 'vitest';
import { capBound, maxConcurrency, servedAgain, type FaultWindow, type Outcome } from '../../support/failover-checker.js';

// The failover tests trust these judgements to find broken promises; a judgement that can never fail would hide them.

function o(token: string, startedAt: number, endedAt: number, status = 200, fault: string | null = null): Outcome {
  return { token, gateway: 0, startedAt, endedAt, status, fault, requestId: status === 200 ? `req_${token}_${startedAt}` : null };
}

const windows: FaultWindow[] = [
  { from: 1_000, promotedAt: 3_000 },
  { from: 20_000, promotedAt: 22_000 },
];

describe('servedAgain', () => {
  it('passes when refusals stop within the bound and the token is served after the promotion', () => {
    const outcomes = [o('a', 3_100, 3_200, 503, 'unavailable'), o('a', 7_900, 7_950, 503, 'unavailable'), o('a', 8_100, 9_900), o('a', 9_000, 9_100)];
    expect(servedAgain(outcomes, 'a', windows, 0, 5_000)).toEqual([]);
  });

  it('names a refusal of a request sent after the bound, unless the next fault had begun by its end', () => {
    const late = [o('a', 8_500, 8_600), o('a', 9_000, 9_100, 503, 'unavailable')];
    expect(servedAgain(late, 'a', windows, 0, 5_000)).toEqual(['a: 503 unavailable for a request sent 6000 ms after the failover (gateway 0, 1970-01-01T00:00:09.000Z)']);
    const caughtByNextFault = [o('a', 8_500, 8_600), o('a', 19_990, 20_500, 503, 'unavailable')];
    expect(servedAgain(caughtByNextFault, 'a', windows, 0, 5_000)).toEqual([]);
  });

  it('counts the cap’s 429 as an answer, names a token never answered after the promotion, and counts 402 only where asked', () => {
    expect(servedAgain([o('a', 3_500, 3_600), o('a', 9_000, 9_100, 429, 'user_cap')], 'a', windows, 0, 5_000)).toEqual([]);
    const refused = [o('a', 2_000, 2_100), o('a', 4_000, 4_100, 402, 'over_budget')];
    expect(servedAgain(refused, 'a', windows, 0, 5_000)).toHaveLength(1);
    expect(servedAgain(refused, 'a', windows, 0, 5_000, true)).toEqual([]);
  });
});

describe('concurrency', () => {
  it('counts overlaps, not touching ends, and bounds a cap by the requests spanning a promotion', () => {
    expect(
      maxConcurrency([
        [0, 10],
        [10, 20],
        [5, 15],
      ]),
    ).toBe(2);
    expect(capBound([o('b', 2_500, 3_500), o('b', 2_900, 3_100), o('b', 3_200, 3_300)], windows, 'b')).toBe(2);
  });
});
