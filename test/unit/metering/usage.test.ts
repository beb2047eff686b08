import { describe, expect, it } from 'vitest';
import { emptyUsage, mergeUsage, type Usage } from '../../../src/metering/usage.js';

function merged(...reports: unknown[]): Usage {
  const usage = emptyUsage();
  for (const report of reports) mergeUsage(usage, report);
  return usage;
}

describe('mergeUsage', () => {
  it('starts from zero counts and no cache split', () => {
    expect(emptyUsage()).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_5m_input_tokens: null,
      cache_creation_1h_input_tokens: null,
    });
  });

  it('takes every field of a full report, the TTL split included', () => {
    expect(
      merged({
        input_tokens: 25,
        output_tokens: 1,
        cache_creation_input_tokens: 1200,
        cache_read_input_tokens: 300,
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 1000 },
        service_tier: 'standard',
      }),
    ).toEqual({
      input_tokens: 25,
      output_tokens: 1,
      cache_creation_input_tokens: 1200,
      cache_read_input_tokens: 300,
      cache_creation_5m_input_tokens: 200,
      cache_creation_1h_input_tokens: 1000,
    });
  });

  it('lets a later report win field by field and keeps what it leaves out', () => {
    const start = {
      input_tokens: 25,
      output_tokens: 1,
      cache_creation_input_tokens: 1200,
      cache_read_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 1000 },
    };
    expect(merged(start, { output_tokens: 15 })).toEqual({
      input_tokens: 25,
      output_tokens: 15,
      cache_creation_input_tokens: 1200,
      cache_read_input_tokens: 300,
      cache_creation_5m_input_tokens: 200,
      cache_creation_1h_input_tokens: 1000,
    });
    expect(merged(start, { input_tokens: 30, output_tokens: 15, cache_read_input_tokens: 0, cache_creation: { ephemeral_1h_input_tokens: 900 } })).toEqual({
      input_tokens: 30,
      output_tokens: 15,
      cache_creation_input_tokens: 1200,
      cache_read_input_tokens: 0,
      cache_creation_5m_input_tokens: 200,
      cache_creation_1h_input_tokens: 900,
    });
  });

  it.each([
    ['null', null],
    ['a negative count', -1],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a numeric string', '15'],
    ['a boolean', true],
    ['an object', { value: 15 }],
  ])('ignores %s in place of a count', (_, bad) => {
    const before = { input_tokens: 5, output_tokens: 6, cache_creation_input_tokens: 7, cache_read_input_tokens: 8, cache_creation: { ephemeral_5m_input_tokens: 3, ephemeral_1h_input_tokens: 4 } };
    const after = merged(before, {
      input_tokens: bad,
      output_tokens: bad,
      cache_creation_input_tokens: bad,
      cache_read_input_tokens: bad,
      cache_creation: { ephemeral_5m_input_tokens: bad, ephemeral_1h_input_tokens: bad },
    });
    expect(after).toEqual(merged(before));
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a string', '{"input_tokens":5}'],
  ])('ignores a usage report that is %s', (_, report) => {
    expect(merged({ input_tokens: 5 }, report)).toEqual(merged({ input_tokens: 5 }));
  });

  it('ignores a cache_creation split that is not an object', () => {
    expect(merged({ cache_creation: 5 }, { cache_creation: null })).toEqual(emptyUsage());
  });
});
