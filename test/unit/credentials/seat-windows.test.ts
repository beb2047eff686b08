import { describe, expect, it } from 'vitest';
import { readSeatWindows } from '../../../src/credentials/seat-windows.js';

const P = 'anthropic-ratelimit-unified-';

describe('readSeatWindows', () => {
  it('reads the 5-hour and weekly windows, reset in epoch seconds becoming epoch ms', () => {
    expect(
      readSeatWindows({
        [`${P}5h-status`]: 'allowed',
        [`${P}5h-reset`]: '1760000000',
        [`${P}5h-utilization`]: '0.42',
        [`${P}7d-status`]: 'allowed_warning',
        [`${P}7d-reset`]: '1760400000',
        [`${P}7d-utilization`]: '0.91',
        [`${P}status`]: 'allowed',
      }),
    ).toEqual([
      { window: '5h', exhausted: false, utilization: 0.42, resetAt: 1_760_000_000_000 },
      { window: '7d', exhausted: false, utilization: 0.91, resetAt: 1_760_400_000_000 },
    ]);
  });

  it('marks a window exhausted only when its status is rejected', () => {
    const windows = readSeatWindows({ [`${P}5h-status`]: 'rejected', [`${P}5h-reset`]: '1760000000', [`${P}7d-status`]: 'allowed' });
    expect(windows.map((w) => [w.window, w.exhausted])).toEqual([
      ['5h', true],
      ['7d', false],
    ]);
    expect(readSeatWindows({ [`${P}7d-status`]: ' Rejected ' })[0]?.exhausted).toBe(true);
    for (const status of ['allowed', 'allowed_warning', 'rate_limited', '']) expect(readSeatWindows({ [`${P}5h-status`]: status })[0]?.exhausted, status).toBe(false);
  });

  it('does not take a full utilization for exhaustion', () => {
    expect(readSeatWindows({ [`${P}5h-utilization`]: '1.0' })).toEqual([{ window: '5h', exhausted: false, utilization: 1, resetAt: null }]);
  });

  it('reads a window from any one of its headers, the others unknown', () => {
    expect(readSeatWindows({ [`${P}7d-reset`]: '1760400000.4' })).toEqual([{ window: '7d', exhausted: false, utilization: null, resetAt: 1_760_400_000_400 }]);
  });

  it.each(['soon', '', '0', '-5', 'Infinity'])('ignores the reset %j', (reset) => {
    expect(readSeatWindows({ [`${P}5h-status`]: 'rejected', [`${P}5h-reset`]: reset })[0]?.resetAt).toBeNull();
  });

  it('ignores a utilization that is not a number', () => {
    expect(readSeatWindows({ [`${P}5h-utilization`]: 'high' })[0]?.utilization).toBeNull();
  });

  it('reads nothing from a response without the unified headers, a 429 included', () => {
    expect(readSeatWindows({})).toEqual([]);
    expect(readSeatWindows({ 'retry-after': '30', 'anthropic-ratelimit-requests-remaining': '0' })).toEqual([]);
  });

  describe('overall status only', () => {
    it.each([
      ['five_hour', '5h'],
      ['seven_day', '7d'],
      ['seven_day_opus', '7d'],
      ['seven_day_sonnet', '7d'],
      [undefined, '5h'],
    ])('a rejection whose representative claim is %s blocks the %s window', (claim, window) => {
      const headers: Record<string, string> = { [`${P}status`]: 'rejected', [`${P}reset`]: '1760000000' };
      if (claim !== undefined) headers[`${P}representative-claim`] = claim;
      expect(readSeatWindows(headers)).toEqual([{ window, exhausted: true, utilization: null, resetAt: 1_760_000_000_000 }]);
    });

    it('keeps the reset unknown when none is given', () => {
      expect(readSeatWindows({ [`${P}status`]: 'rejected' })).toEqual([{ window: '5h', exhausted: true, utilization: null, resetAt: null }]);
    });

    it('reads nothing from an overall status that is not rejected', () => {
      expect(readSeatWindows({ [`${P}status`]: 'allowed', [`${P}representative-claim`]: 'five_hour', [`${P}reset`]: '1760000000' })).toEqual([]);
    });

    it('is not used when the per-window headers are present', () => {
      const windows = readSeatWindows({ [`${P}status`]: 'rejected', [`${P}representative-claim`]: 'seven_day', [`${P}5h-status`]: 'rejected' });
      expect(windows).toEqual([{ window: '5h', exhausted: true, utilization: null, resetAt: null }]);
    });
  });
});
