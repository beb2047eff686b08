import type { Candidate } from './candidate.js';
import { keyLikeValue } from './rules/generic.js';

// Two-part credentials are often written as two quoted values in one
// statement (`github = 'client id', 'client secret'`, a tuple, an argument
// list, `'AKIA…''secret'`), and a rule that finds one part by its name or
// prefix says nothing about the other. So next to a quoted finding, one
// more quoted key-like value on either side (only a comma and spaces
// between) is taken as its other half and removed under the same rule id.
const AFTER = /\\{0,3}[ \t]{0,4},?[ \t]{0,4}\\{0,3}(["'])([A-Za-z0-9+/=_.-]{16,256})\\{0,3}\1/dy;
const BEFORE = /(["'])([A-Za-z0-9+/=_.-]{16,256})\\{0,3}\1\\{0,3}[ \t]{0,4},?[ \t]{0,4}\\{0,3}$/d;
const LOOK_BACK = 300;

function isQuote(c: string | undefined): boolean {
  return c === '"' || c === "'";
}

// The characters BEFORE allows between the other half's closing quote and
// this finding's opening quote, and how many of them at most.
const isSeparator = (c: number): boolean => c === 92 || c === 32 || c === 9 || c === 44;
const MAX_SEPARATOR = 3 + 4 + 1 + 4 + 3;

/**
 * BEFORE's necessary condition, read backwards from the opening quote at
 * `quote`: BEFORE ends with separator characters only, right after its
 * closing quote, which is not one; so the whole run of separators before
 * `quote` is BEFORE's tail, and a quote must stand before it. Without this,
 * every quoted finding ran an unanchored search over 300 characters
 * (`apikey='v1apikey='v2…` is a finding every 13 characters).
 */
function quoteBeforeSeparator(text: string, quote: number): boolean {
  let k = quote - 1;
  const stop = Math.max(0, quote - 1 - MAX_SEPARATOR);
  while (k >= stop && isSeparator(text.charCodeAt(k))) k--;
  if (k < 0 || quote - 1 - k > MAX_SEPARATOR) return false;
  const c = text.charCodeAt(k);
  return c === 34 || c === 39;
}

/** Adds the other half of a quoted pair around [start, end) of `text`; returns the characters read. */
export function findPairHalves(text: string, start: number, end: number, offset: number, rule: number, out: Candidate[]): number {
  let read = 0;
  if (isQuote(text[end])) {
    AFTER.lastIndex = end + 1;
    const m = AFTER.exec(text);
    read += m === null ? 1 : m[0].length;
    if (m !== null && keyLikeValue(m[2]!)) {
      const [s, e] = m.indices![2]!;
      out.push({ start: s + offset, end: e + offset, rule });
    }
  }
  if (isQuote(text[start - 1]) && quoteBeforeSeparator(text, start - 1)) {
    const from = Math.max(0, start - 1 - LOOK_BACK);
    const before = text.slice(from, start - 1);
    read += before.length;
    const m = BEFORE.exec(before);
    if (m !== null && keyLikeValue(m[2]!)) {
      const [s, e] = m.indices![2]!;
      out.push({ start: from + s + offset, end: from + e + offset, rule });
    }
  }
  return read;
}
