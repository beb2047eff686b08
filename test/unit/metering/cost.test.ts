import { describe, expect, it } from 'vitest';
import { costOf } from '../../../src/metering/cost.js';
import { emptyUsage, type Usage } from '../../../src/metering/usage.js';
import { priceFromBase } from '../../../src/models/price.js';

const SONNET = priceFromBase(3, 15); // cache writes 3.75 (5m) and 6 (1h), reads 0.3

function usage(fields: Partial<Usage>): Usage {
  return { ...emptyUsage(), ...fields };
}

describe('costOf', () => {
  it('is null when the model has no known price', () => {
    expect(costOf(usage({ input_tokens: 1000 }), undefined)).toBeNull();
  });

  it('is zero for no tokens', () => {
    expect(costOf(emptyUsage(), SONNET)).toBe(0);
  });

  it('prices cache writes at the 5-minute rate when no TTL split is given', () => {
    // 1000×3 + 500×15 + 2000×3.75 + 3000×0.3 = 18 900 µ$
    expect(costOf(usage({ input_tokens: 1000, output_tokens: 500, cache_creation_input_tokens: 2000, cache_read_input_tokens: 3000 }), SONNET)).toBe(0.0189);
  });

  it('prices each part of a TTL split at its own rate', () => {
    // 1000×3 + 500×15 + 500×3.75 + 1500×6 + 3000×0.3 = 22 275 µ$
    const split = usage({
      input_tokens: 1000,
      output_tokens: 500,
      cache_creation_input_tokens: 2000,
      cache_read_input_tokens: 3000,
      cache_creation_5m_input_tokens: 500,
      cache_creation_1h_input_tokens: 1500,
    });
    expect(costOf(split, SONNET)).toBe(0.022275);
  });

  it('takes the rest of the cache writes as 5-minute when only the 1-hour part is given', () => {
    // 500×3.75 + 1500×6 = 10 875 µ$
    expect(costOf(usage({ cache_creation_input_tokens: 2000, cache_creation_1h_input_tokens: 1500 }), SONNET)).toBe(0.010875);
    // More 1-hour tokens than the total (an inconsistent report) never gives a negative part.
    expect(costOf(usage({ cache_creation_input_tokens: 100, cache_creation_1h_input_tokens: 1500 }), SONNET)).toBe(0.009);
  });

  it('takes no 1-hour writes when only the 5-minute part is given', () => {
    expect(costOf(usage({ cache_creation_input_tokens: 2000, cache_creation_5m_input_tokens: 2000 }), SONNET)).toBe(0.0075);
  });

  it('rounds to a millionth of a dollar', () => {
    const haiku3 = priceFromBase(0.25, 1.25);
    expect(costOf(usage({ input_tokens: 1 }), haiku3)).toBe(0); // 0.25 µ$
    expect(costOf(usage({ input_tokens: 2 }), haiku3)).toBe(0.000001); // 0.5 µ$ rounds up
    expect(costOf(usage({ input_tokens: 3 }), haiku3)).toBe(0.000001); // 0.75 µ$
    expect(costOf(usage({ input_tokens: 7, output_tokens: 3 }), haiku3)).toBe(0.000006); // 1.75 + 3.75 = 5.5 µ$
    const cost = costOf(usage({ input_tokens: 123_457, output_tokens: 98_765, cache_read_input_tokens: 55_555 }), priceFromBase(0.8, 4)) as number;
    // 98 765.6 + 395 060 + 4 444.4 = 498 270 µ$, with no binary-fraction residue left over.
    expect(cost).toBe(0.49827);
  });
});
