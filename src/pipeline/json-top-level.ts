/**
 * Locate the raw bytes of a top-level string member of a JSON object without
 * parsing the rest, so a changed `model` value can be spliced in and every
 * other byte stays identical. Returns [start, end) of the value token
 * (quotes included), or null.
 */
export function findTopLevelString(body: Buffer, key: string): [number, number] | null {
  const len = body.length;
  let i = skipWs(body, 0);
  if (body[i] !== 0x7b /* { */) return null;
  i++;
  for (;;) {
    i = skipWs(body, i);
    if (i >= len || body[i] === 0x7d /* } */) return null;
    if (body[i] !== 0x22) return null;
    const keyEnd = endOfString(body, i);
    if (keyEnd < 0) return null;
    const isKey = keyEnd - i - 2 === key.length && body.toString('utf8', i + 1, keyEnd - 1) === key;
    i = skipWs(body, keyEnd);
    if (body[i] !== 0x3a /* : */) return null;
    i = skipWs(body, i + 1);
    const valueStart = i;
    const valueEnd = endOfValue(body, i);
    if (valueEnd < 0) return null;
    if (isKey) return body[valueStart] === 0x22 ? [valueStart, valueEnd] : null;
    i = skipWs(body, valueEnd);
    if (body[i] === 0x2c /* , */) i++;
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
  for (let j = i + 1; j < b.length; j++) {
    const c = b[j];
    if (c === 0x5c /* \ */) j++;
    else if (c === 0x22) return j + 1;
  }
  return -1;
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
