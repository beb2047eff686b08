import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../../src/pipeline/request-id.js';

describe('newRequestId', () => {
  it('is req_ and 32 lowercase hex digits', () => {
    for (let i = 0; i < 600; i++) expect(newRequestId()).toMatch(/^req_[0-9a-f]{32}$/);
  });

  // Across several refills of the pool: a refill that failed to change the bytes would repeat ids 256 apart.
  it('never repeats, across refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) seen.add(newRequestId());
    expect(seen.size).toBe(5000);
  });

  it('uses every hex digit in every position (the bytes are random, not a counter)', () => {
    const digitsAt = Array.from({ length: 32 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      const hex = newRequestId().slice(4);
      for (let p = 0; p < 32; p++) digitsAt[p]?.add(hex[p] as string);
    }
    for (const digits of digitsAt) expect(digits.size).toBe(16);
  });
});
