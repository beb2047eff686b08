// Fake credentials built at run time from a seeded generator: the tests need
// token-shaped strings, and none should sit in the source where a secret
// scanner (or a reader) would take it for a real one.

let state = 0x2545f491;

/** mulberry32 */
function next(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export function reseed(seed: number): void {
  state = seed >>> 0;
}

export function from(alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** Random base62, with at least one digit and both cases, as real tokens have. */
export function b62(n: number): string {
  for (;;) {
    const s = from(UPPER + LOWER + DIGITS, n);
    if (n < 3 || (/[0-9]/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s))) return s;
  }
}
export const hex = (n: number): string => from('0123456789abcdef', n);
export const upperHex = (n: number): string => from('0123456789ABCDEF', n);
export const mixedHex = (n: number): string => from('0123456789abcdefABCDEF', n);
export const digits = (n: number): string => from(DIGITS, n);
export const letters = (n: number): string => from(UPPER + LOWER, n);
/** Letters only, capitals and lower-case letters alternating in random runs of one or two, as a digit-free random string's often do. */
export function mixedCaseLetters(n: number): string {
  let out = '';
  while (out.length < n) out += from(UPPER, from('12', 1) === '2' ? 2 : 1) + from(LOWER, 1);
  return out.slice(0, n);
}
export const lowerAlnum = (n: number): string => from(LOWER + DIGITS, n);
export const upperAlnum = (n: number): string => from(UPPER + DIGITS, n);
export const base32 = (n: number): string => from('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', n);
export const lowerBase32 = (n: number): string => from('abcdefghijklmnopqrstuvwxyz234567', n);
export const bech32 = (n: number): string => from('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', n);
export const b64 = (n: number): string => b62(n - Math.floor(n / 8)) + from('+/', Math.floor(n / 8));
export const b64url = (n: number): string => b62(n - Math.floor(n / 10)) + from('_-', Math.floor(n / 10));
export const uuid = (): string => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
export const base64Of = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** A PEM block with `lines` lines of 64 base64 characters. */
export function pem(label: string, lines = 12, newline = '\n'): string {
  const body = Array.from({ length: lines }, () => b64(64)).join(newline);
  return `-----BEGIN ${label}-----${newline}${body}${newline}-----END ${label}-----`;
}

/** A syntactically plausible JWT (HS256 header, JSON payload, signature). */
export function jwt(): string {
  const payload = Buffer.from(JSON.stringify({ sub: `user-${digits(6)}`, iat: 1717200000, scope: b62(12) })).toString('base64url');
  return `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${b64url(43)}`;
}
