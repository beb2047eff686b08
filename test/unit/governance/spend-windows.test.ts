import { describe, expect, it } from 'vitest';
import { dayStartIn, windowSpan } from '../../../src/governance/spend-windows.js';

const at = (iso: string): number => Date.parse(iso);

describe('windowSpan', () => {
  it('bounds daily, weekly (from Monday) and monthly windows by the calendar of the time zone', () => {
    // 2026-11-22 is a Sunday; 23:30 UTC is already Monday 00:30 in Berlin (UTC+1).
    const now = at('2026-11-22T23:30:00Z');
    expect(windowSpan('daily', now, 'UTC')).toEqual({ id: 'd2026-11-22', resetAt: at('2026-11-23T00:00:00Z') });
    expect(windowSpan('daily', now, 'Europe/Berlin')).toEqual({ id: 'd2026-11-23', resetAt: at('2026-11-23T23:00:00Z') });
    expect(windowSpan('weekly', now, 'UTC')).toEqual({ id: 'w2026-11-16', resetAt: at('2026-11-23T00:00:00Z') });
    expect(windowSpan('weekly', now, 'Europe/Berlin')).toEqual({ id: 'w2026-11-23', resetAt: at('2026-11-29T23:00:00Z') });
    expect(windowSpan('monthly', now, 'America/New_York')).toEqual({ id: 'm2026-11', resetAt: at('2026-12-01T05:00:00Z') });
  });

  it('finds the real reset across a daylight-saving change', () => {
    // Berlin leaves summer time on 2026-10-25: that day has 25 hours.
    expect(windowSpan('daily', at('2026-10-24T22:30:00Z'), 'Europe/Berlin')).toEqual({ id: 'd2026-10-25', resetAt: at('2026-10-25T23:00:00Z') });
  });

  it('never serves a reused span past its reset', () => {
    const before = windowSpan('daily', at('2026-03-10T23:59:59Z'), 'UTC');
    const after = windowSpan('daily', at('2026-03-11T00:00:00Z'), 'UTC');
    expect(before.id).toBe('d2026-03-10');
    expect(after).toEqual({ id: 'd2026-03-11', resetAt: at('2026-03-12T00:00:00Z') });
    // Going back in time (another caller's clock) recomputes rather than reusing a later span.
    expect(windowSpan('daily', at('2026-03-10T12:00:00Z'), 'UTC').id).toBe('d2026-03-10');
  });
});

describe('dayStartIn', () => {
  it('is the instant a calendar day starts in the zone, daylight-saving days and half-hour offsets included', () => {
    expect(new Date(dayStartIn('2026-11-01', 'UTC')).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(new Date(dayStartIn('2026-11-01', 'Asia/Kolkata')).toISOString()).toBe('2026-10-31T18:30:00.000Z');
    expect(new Date(dayStartIn('2026-11-01', 'Asia/Kathmandu')).toISOString()).toBe('2026-10-31T18:15:00.000Z');
    // New York springs forward on 2026-03-08 at 02:00: that day starts at 05:00 UTC, the next at 04:00.
    expect(new Date(dayStartIn('2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(dayStartIn('2026-03-09', 'America/New_York')).toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });
});
