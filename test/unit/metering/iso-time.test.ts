import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/metering/iso-time.js';

// Date's whole range (±8.64e15 ms), extended years included.
const anyTime = fc.integer({ min: -8.64e15, max: 8.64e15 });

describe('isoTime', () => {
  it('is toISOString for any time', () => {
    fc.assert(fc.property(anyTime, (ms) => isoTime(ms) === new Date(ms).toISOString()));
  });

  // Runs of nearby times take the kept minute: across second, minute, hour, day and year boundaries, and backwards.
  it('is toISOString for runs of nearby times, in any order', () => {
    fc.assert(
      fc.property(anyTime, fc.array(fc.integer({ min: -90_000, max: 90_000 }), { minLength: 1, maxLength: 40 }), (base, steps) => {
        let ms = Math.max(-8.64e15, Math.min(8.64e15 - 90_000, base));
        for (const step of steps) {
          ms = Math.max(-8.64e15, Math.min(8.64e15, ms + step));
          if (isoTime(ms) !== new Date(ms).toISOString()) return false;
        }
        return true;
      }),
    );
    for (const edge of [Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(2028, 1, 29, 0, 0, 0, 5), -1, 0, 59_999, 60_000, -60_001]) {
      expect(isoTime(edge)).toBe(new Date(edge).toISOString());
      expect(isoTime(edge + 1)).toBe(new Date(edge + 1).toISOString());
    }
  });

  it('truncates a fraction of a millisecond as Date does, and throws on an invalid time as Date does', () => {
    const base = Date.UTC(2026, 10, 29, 12, 0, 0, 0);
    isoTime(base);
    for (const ms of [base + 1.5, base + 999.999, -0.5, -1.5]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
    // The last valid time starts a minute: the next millisecond is still invalid.
    expect(isoTime(8.64e15)).toBe(new Date(8.64e15).toISOString());
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
