/**
 * Locate the raw bytes of a top-level string member of a JSON object without
 * parsing the rest, so a changed `model` value can be spliced in and every
 * other byte stays identical. Returns [start, end) of the value token
 * (quotes included), or null. Keys are compared as JSON.parse reads them
 * (escapes decoded, the last of duplicate keys wins), so the span is the
 * value the rest of the gateway saw.
 */
export function findTopLevelString(body: Buffer, key: string): [number, number] | null {
  const len = body.length;
  let i = skipWs(body, 0);
  if (body[i] !== 0x7b /* { */) return null;
  i++;
  let found: [number, number] | null = null;
  for (;;) {
    i = skipWs(body, i);
    if (i < len && body[i] === 0x7d /* } */) return found;
    if (i >= len || body[i] !== 0x22) return null;
    const keyEnd = endOfString(body, i);
    if (keyEnd < 0) return null;
    const isKey = keyEquals(body, i, keyEnd, key);
    i = skipWs(body, keyEnd);
    if (body[i] !== 0x3a /* : */) return null;
    i = skipWs(body, i + 1);
    const valueStart = i;
    const valueEnd = endOfValue(body, i);
    if (valueEnd < 0) return null;
    if (isKey) found = body[valueStart] === 0x22 ? [valueStart, valueEnd] : null;
    i = skipWs(body, valueEnd);
    if (body[i] === 0x2c /* , */) i++;
  }
}

/** The key token at [start, end) (quotes included) equals `key` once its escapes are decoded. */
function keyEquals(body: Buffer, start: number, end: number, key: string): boolean {
  const token = body.subarray(start, end);
  if (!token.includes(0x5c /* \ */)) return token.length - 2 === Buffer.byteLength(key) && token.toString('utf8', 1, token.length - 1) === key;
  try {
    return JSON.parse(token.toString('utf8')) === key;
  } catch {
    return false;
  }
}

function skipWs(b: Buffer, i: number): number {
  while (i < b.length) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** `i` at an opening quote; returns the index after the closing quote, or -1. */
function endOfString(b: Buffer, i: number): number {
  // Jump from quote to quote natively: prompt text is most of a body's bytes.
  for (let j = i + 1; ;) {
    const q = b.indexOf(0x22, j);
    if (q === -1) return -1;
    let backslashes = 0;
    while (q - backslashes - 1 > i && b[q - backslashes - 1] === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function endOfValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === 0x22) return endOfString(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const d = b[j];
      if (d === 0x22) {
        j = endOfString(b, j) - 1;
        if (j < 0) return -1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < b.length) {
    const d = b[j];
    if (d === 0x2c || d === 0x7d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
    j++;
  }
  return j > i ? j : -1;
}
