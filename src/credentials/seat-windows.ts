import type { HeaderMap } from '../http/headers.js';
import type { SeatWindow } from '../state/state.js';

const PREFIX = 'anthropic-ratelimit-unified-';
const WINDOWS = ['5h', '7d'] as const;

/**
 * A subscription seat's 5-hour and weekly windows, as the upstream reports
 * them in its unified rate-limit headers (`…-5h-status`, `…-5h-reset` in
 * epoch seconds, `…-5h-utilization` as a fraction, and the same for `7d`).
 * Only these headers mark a window exhausted; a 429 without them is the
 * provider's own answer and changes nothing.
 */
export function readSeatWindows(headers: HeaderMap): SeatWindow[] {
  const out: SeatWindow[] = [];
  for (const window of WINDOWS) {
    const status = headers[`${PREFIX}${window}-status`];
    const reset = headers[`${PREFIX}${window}-reset`];
    const utilization = headers[`${PREFIX}${window}-utilization`];
    if (status === undefined && reset === undefined && utilization === undefined) continue;
    const resetSeconds = reset === undefined ? NaN : Number(reset);
    const used = utilization === undefined ? NaN : Number(utilization);
    out.push({
      window,
      exhausted: status?.trim().toLowerCase() === 'rejected',
      utilization: Number.isFinite(used) ? used : null,
      resetAt: Number.isFinite(resetSeconds) && resetSeconds > 0 ? Math.round(resetSeconds * 1000) : null,
    });
  }
  // Some answers give only the overall status and the window that decided it.
  if (out.length === 0 && headers[`${PREFIX}status`]?.trim().toLowerCase() === 'rejected') {
    const claim = headers[`${PREFIX}representative-claim`]?.trim();
    const reset = Number(headers[`${PREFIX}reset`]);
    out.push({
      // Weekly claims come per model too (seven_day_opus, seven_day_sonnet).
      window: claim?.startsWith('seven_day') ? '7d' : '5h',
      exhausted: true,
      utilization: null,
      resetAt: Number.isFinite(reset) && reset > 0 ? Math.round(reset * 1000) : null,
    });
  }
  return out;
}
