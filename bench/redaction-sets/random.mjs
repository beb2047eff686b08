// Seeded randomness for the evaluation sets: the same seed gives the same
// set on every machine. Values are drawn from an alphabet and a length, the
// way a provider documents its key format, never from a rule's regex.

export function rng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chars = (alphabet, n) => {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    return out;
  };
  return { next, int, pick, chars };
}

export const A = {
  hex: '0123456789abcdef',
  HEX: '0123456789ABCDEF',
  digits: '0123456789',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lowernum: 'abcdefghijklmnopqrstuvwxyz0123456789',
  uppernum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  b62: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  b64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  b64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  base32lower: 'abcdefghijklmnopqrstuvwxyz234567',
  bech32: 'qpzry9x8gf2tvdw0s3jn54khce6mua7l',
  azure: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~.-',
  password: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%*+-_=',
};

/**
 * A value from a format: literal strings, and [alphabet, length] or
 * [alphabet, min, max] parts. Random parts get at least one digit and one
 * letter when their alphabet has both, as real generated keys almost always do.
 */
export function fromFormat(r, parts) {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if (typeof p === 'function') out += p(r);
    else {
      const [alphabet, lo, hi] = p;
      const n = hi === undefined ? lo : r.int(lo, hi);
      let s = r.chars(A[alphabet] ?? alphabet, n);
      const al = A[alphabet] ?? alphabet;
      if (n >= 8 && /[0-9]/.test(al) && /[A-Za-z]/.test(al)) {
        if (!/[0-9]/.test(s)) s = s.slice(0, -1) + r.pick('23456789');
        if (!/[A-Za-z]/.test(s)) s = r.pick(al.replace(/[^A-Za-z]/g, '').split('')) + s.slice(1);
      }
      out += s;
    }
  }
  return out;
}

export const uuid = (r) => `${r.chars(A.hex, 8)}-${r.chars(A.hex, 4)}-4${r.chars(A.hex, 3)}-${r.pick(['8', '9', 'a', 'b'])}${r.chars(A.hex, 3)}-${r.chars(A.hex, 12)}`;
