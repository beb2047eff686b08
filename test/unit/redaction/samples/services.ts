// Samples for the table-driven service rules (src/redaction/rules/services.ts).
// A true positive is built from each row's own token shape by a small
// sampler of the few regex forms the table uses (this tests that a row
// finds what it says; the evaluation sets in bench/redaction-sets are where
// values come from provider formats instead). False positives: the token
// one character short of its shape, and for context rows the value under an
// unrelated name.
import { shannonEntropy } from '../../../../src/redaction/entropy.js';
import { CONTEXT, PREFIXED } from '../../../../src/redaction/rules/services.js';
import { from } from '../fake.js';
import { tp, type SampleTable } from './types.js';

const CLASSES: Record<string, string> = {
  '0-9a-f': '0123456789abcdef',
  'A-Za-z0-9': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  'A-Za-z0-9_-': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  'A-Za-z0-9+/': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  'A-Za-z0-9+/=': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  'A-Z0-9': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  'a-z0-9': 'abcdefghijklmnopqrstuvwxyz0123456789',
  'a-z2-7': 'abcdefghijklmnopqrstuvwxyz234567',
  '0-9A-F': '0123456789ABCDEF',
  '0-9': '0123456789',
  'A-Za-z0-9%': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  'A-Za-z0-9._-': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  'A-Za-z0-9+/=._-': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  'A-Za-z0-9+.:;_()<>#-': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  apu: 'a',
  '01': '0',
  'A-Za-z0-9_': 'abc',
  '_-': '_',
  '_.-': '_',
  '._-': '_',
  'A-Za-z0-9+/=_-': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  'A-Za-z0-9._~+/-': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  ou: 'u',
  at: 't',
  'a-z': 'abcdefghijklmnopqrstuvwxyz',
};

/** The characters of a simple class body such as `_.` or `a-f0-9`. */
function expand(cls: string): string {
  let out = '';
  for (let i = 0; i < cls.length; i++) {
    if (cls[i] === '\\') out += cls[++i];
    else if (cls[i + 1] === '-' && i + 2 < cls.length) {
      for (let c = cls.charCodeAt(i); c <= cls.charCodeAt(i + 2); c++) out += String.fromCharCode(c);
      i += 2;
    } else out += cls[i];
  }
  return out;
}

/** One string matching `source` (the table's forms only), `shorten` characters short in its last class run. */
export function sample(source: string, shorten = 0): string {
  let out = '';
  let i = 0;
  const runs: { at: number; n: number }[] = [];
  while (i < source.length) {
    const c = source[i]!;
    if (c === '[') {
      const close = source.indexOf(']', i);
      const cls = source.slice(i + 1, close);
      const alphabet = cls.startsWith('^') ? 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!' : (CLASSES[cls] ?? expand(cls));
      if (alphabet === undefined) throw new Error(`sampler: class [${cls}] in ${source}`);
      i = close + 1;
      let n = 1;
      const q = /^\{(\d+)(?:,(\d+))?\}\??/.exec(source.slice(i));
      if (q) {
        n = Number(q[1]);
        i += q[0].length;
      }
      runs.push({ at: out.length, n });
      let s = from(alphabet, n);
      const letter = /[A-Za-z]/.exec(alphabet)?.[0];
      if (n >= 8 && /[0-9]/.test(alphabet) && letter !== undefined) s = `${s.slice(0, -2)}7${letter}`;
      out += s;
    } else if (c === '(' && source.startsWith('(?:', i)) {
      // First alternative of a group, then its quantifier if any.
      let depth = 0;
      let j = i;
      for (; j < source.length; j++) {
        if (source[j] === '(') depth++;
        else if (source[j] === ')' && --depth === 0) break;
      }
      const inner = source.slice(i + 3, j);
      const first = inner.split('|')[0]!;
      i = j + 1;
      if (source[i] === '?') {
        i++;
        continue;
      }
      const q = /^\{(\d+)(?:,(\d+))?\}/.exec(source.slice(i));
      const times = q ? Number(q[1]) : 1;
      if (q) i += q[0].length;
      for (let k = 0; k < times; k++) out += sample(first);
    } else if (c === '\\') {
      out += source[i + 1];
      i += 2;
    } else if (c === '?' || source.startsWith('{0,', i)) {
      // An optional literal: leave it out.
      out = out.slice(0, -1);
      i = c === '?' ? i + 1 : source.indexOf('}', i) + 1;
    } else if (c === '{') {
      const q = /^\{(\d+)(?:,(\d+))?\}/.exec(source.slice(i))!;
      const n = Number(q[1]);
      out = n === 0 ? out.slice(0, -1) : out + out[out.length - 1]!.repeat(n - 1);
      i += q[0].length;
    } else {
      out += c;
      i++;
    }
  }
  if (shorten > 0) {
    const last = runs[runs.length - 1]!;
    out = out.slice(0, last.at + last.n - shorten) + out.slice(last.at + last.n);
  }
  return out;
}

const table: Record<string, { tp: ReturnType<typeof tp>[]; fp: string[] }> = {};
for (const [id, , keyword, token] of PREFIXED) {
  const value = sample(token);
  const literal = token.replace(/\\(.)/g, '$1');
  const context = literal.startsWith(keyword) ? '' : `${keyword} `;
  table[id] = { tp: [tp(`${context}value: `, value, '\n')], fp: [`${context}value: ${sample(token, 2)}-`, `value: x${value}`] };
}
// A short draw (14 hex) now and then falls below the table's entropy floor
// of 3 bits, as a real token would not: draw again, so that the samples do
// not depend on how many random values earlier tables used.
function randomEnough(draw: () => string): string {
  for (;;) {
    const v = draw();
    if (shannonEntropy(v) >= 3) return v;
  }
}
for (const [id, , keywords, nameSource, valueSource] of CONTEXT) {
  const value = randomEnough(() => sample(valueSource.replace(/\{(\d+),(\d+)\}/g, (_, a: string, b: string) => `{${Math.max(Number(a), Math.min(Number(b), 24))}}`)));
  const fits = new RegExp(`^(?:${nameSource})`, 'i');
  const name = keywords
    .flatMap((k) => ['', 'token', '_token', '_secret', '_password', '_key', '_skey'].map((s) => `${k}${s}`))
    .find((n) => fits.test(n))!
    .toUpperCase();
  table[id] = { tp: [tp(`${name}=`, value, '\n'), tp(`"${name.toLowerCase()}": "`, value, '"')], fp: [`REQUEST_ID=${value}`, `${name}=\${${name}}`] };
}

export const serviceSamples: SampleTable = table;
