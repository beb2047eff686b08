import type { SpendWindow } from '../resources/types.js';

export interface WindowSpan {
  /** Stable id of the calendar window, part of the counter key (nothing has to sweep old counters). */
  readonly id: string;
  /** Epoch ms when the window really resets, in the company's time zone. */
  readonly resetAt: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(epochMs: number, timeZone: string): LocalParts {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(epochMs))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return { year: out.year as number, month: out.month as number, day: out.day as number, hour: out.hour as number, minute: out.minute as number, second: out.second as number };
}

/** Epoch ms of a wall-clock time in the zone (iterates the zone offset, which handles DST shifts). */
function zonedToEpoch(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const p = localParts(guess, timeZone);
    const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += wall - asUtc;
  }
  return guess;
}

/** Epoch ms of the start of a calendar day (`YYYY-MM-DD`) in the zone. */
export function dayStartIn(date: string, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return zonedToEpoch(year, month, day, timeZone);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Recompute at least this often inside a window: a bound on any error in a computed reset. */
const MAX_REUSE_MS = 60_000;
const spans = new Map<string, { span: WindowSpan; from: number; until: number }>();

/**
 * The calendar window `now` falls in, for daily, weekly (from Monday) or
 * monthly limits. Working a window out through Intl costs more than the rest
 * of spend admission, and every request asks for it; so a span is reused
 * until its reset (and for a minute at most).
 */
export function windowSpan(window: SpendWindow, now: number, timeZone: string): WindowSpan {
  const key = `${timeZone}\u0000${window}`;
  const hit = spans.get(key);
  if (hit && now >= hit.from && now < hit.until) return hit.span;
  const span = computeSpan(window, now, timeZone);
  if (spans.size > 1_000) spans.clear();
  spans.set(key, { span, from: now, until: Math.min(span.resetAt, now + MAX_REUSE_MS) });
  return span;
}

function computeSpan(window: SpendWindow, now: number, timeZone: string): WindowSpan {
  const p = localParts(now, timeZone);
  if (window === 'daily') {
    const next = new Date(Date.UTC(p.year, p.month - 1, p.day + 1));
    return { id: `d${p.year}-${pad(p.month)}-${pad(p.day)}`, resetAt: zonedToEpoch(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone) };
  }
  if (window === 'monthly') {
    const next = new Date(Date.UTC(p.year, p.month, 1));
    return { id: `m${p.year}-${pad(p.month)}`, resetAt: zonedToEpoch(next.getUTCFullYear(), next.getUTCMonth() + 1, 1, timeZone) };
  }
  const weekday = (new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay() + 6) % 7; // Monday = 0
  const monday = new Date(Date.UTC(p.year, p.month - 1, p.day - weekday));
  const nextMonday = new Date(Date.UTC(p.year, p.month - 1, p.day - weekday + 7));
  return {
    id: `w${monday.getUTCFullYear()}-${pad(monday.getUTCMonth() + 1)}-${pad(monday.getUTCDate())}`,
    resetAt: zonedToEpoch(nextMonday.getUTCFullYear(), nextMonday.getUTCMonth() + 1, nextMonday.getUTCDate(), timeZone),
  };
}
