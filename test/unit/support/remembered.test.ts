import { describe, expect, it } from 'vitest';
import { remembered } from '../../../src/support/remembered.js';

function counted(): { calls: string[]; compute: (key: string) => string } {
  const calls: string[] = [];
  return { calls, compute: (key) => (calls.push(key), key.toUpperCase()) };
}

describe('remembered', () => {
  it('computes a key once and answers it again from the table', () => {
    const { calls, compute } = counted();
    const f = remembered(compute);
    expect([f('a'), f('b'), f('a'), f('a')]).toEqual(['A', 'B', 'A', 'A']);
    expect(calls).toEqual(['a', 'b']);
  });

  it('starts over when full, and still answers every key correctly', () => {
    const { calls, compute } = counted();
    const f = remembered(compute, { entries: 2 });
    expect([f('a'), f('b'), f('c'), f('a'), f('c')]).toEqual(['A', 'B', 'C', 'A', 'C']);
    // 'c' found the table full and emptied it: 'a' was computed again, 'c' was kept.
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('answers keys over the length limit without keeping them', () => {
    const { calls, compute } = counted();
    const f = remembered(compute, { maxKeyLength: 3 });
    expect([f('long'), f('long'), f('abc'), f('abc')]).toEqual(['LONG', 'LONG', 'ABC', 'ABC']);
    expect(calls).toEqual(['long', 'long', 'abc']);
  });
});
