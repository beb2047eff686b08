/**
 * `new Date(ms).toISOString()`, with the part up to the minute kept from the
 * last call. Every request stamps its usage record with it: V8's formatter
 * made up ~3 µs of the ~4.4 the record took per request in gw serve's profile
 * under load, and appending seconds and milliseconds to a kept prefix ~0.4
 * (docs/benchmarks.md, "Point 2, per-request fixed costs"). Checked against
 * toISOString by test/unit/metering/iso-time.test.ts.
 */
const MAX_TIME = 8.64e15;
let minuteStart = Number.NaN;
let minuteEnd = Number.NaN;
/** `YYYY-MM-DDTHH:MM:` (or the extended-year form) of the minute last formatted. */
let prefix = '';
const TWO_DIGITS: readonly string[] = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

export function isoTime(ms: number): string {
  if (ms >= minuteStart && ms < minuteEnd && Number.isInteger(ms)) {
    const within = ms - minuteStart;
    const seconds = Math.floor(within / 1000);
    const millis = within - seconds * 1000;
    return prefix + (TWO_DIGITS[seconds] as string) + (millis < 10 ? '.00' : millis < 100 ? '.0' : '.') + millis + 'Z';
  }
  // Anything else (another minute, a fraction, an invalid time) goes through Date, which also throws as it would.
  const full = new Date(ms).toISOString();
  if (Number.isInteger(ms)) {
    minuteStart = ms - (((ms % 60_000) + 60_000) % 60_000);
    // Date's last valid time is the first millisecond of a minute: nothing past it may come from the prefix.
    minuteEnd = Math.min(minuteStart + 60_000, MAX_TIME + 1);
    prefix = full.slice(0, -'SS.mmmZ'.length);
  }
  return full;
}
