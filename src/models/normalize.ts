import { remembered } from '../support/remembered.js';

const DASHES_AND_DOTS = /[-.]/g;
const CAPITAL = /[A-Z]/;
const CAPITALS = /[A-Z]/g;
const lower = (c: string): string => String.fromCharCode(c.charCodeAt(0) + 32);

/**
 * Ids already rewritten, by their spelling: a request normalizes the same few ids (what it asked for, the
 * catalogue's spelling of it, the price list's key) three or four times, and the regex passes were most of
 * what choosing a model cost.
 */
const rewritten = remembered(
  (id: string): string => {
    const dashless = id.replace(DASHES_AND_DOTS, '');
    return CAPITAL.test(dashless) ? dashless.replace(CAPITALS, lower) : dashless;
  },
  { maxKeyLength: 256 },
);

/** Capitals, dashes and dots in a model id do not change which model is selected (spec §2.4). */
export function normalizeModelId(id: string): string {
  // It runs several times per request: an id already normal is returned as it is, and the others are rewritten by
  // the regex engine in one or two passes rather than a character at a time.
  let i = 0;
  for (; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c === 0x2d || c === 0x2e || (c >= 0x41 && c <= 0x5a)) break;
  }
  return i === id.length ? id : rewritten(id);
}
