import { memoized } from './value-facts.js';

// Tests that tell a credential from the things that merely sit where one
// could: template references, documentation placeholders, code expressions.
// A false positive in an inline gateway only hides text from the model, but
// prompts are full of docs and sample configs, so these keep the noise down.

const TEMPLATE_START = /^(?:\$|\{\{|\{%|%[A-Za-z_]|#\{|@\{|<[A-Za-z_ -]|\[[A-Za-z_ -])/;

/** `${VAR}`, `$VAR`, `{{ .Values.x }}`, `%VAR%`, `<your-key>`, `[PASSWORD]`. */
export function looksLikeTemplate(value: string): boolean {
  return TEMPLATE_START.test(value);
}

// Case-sensitive on purpose: a long random token contains `yOUR` or
// `ExaMple` now and then; people write these words in one case.
const PLACEHOLDER_WORDS =
  /xxxx|XXXX|\*\*\*|\.\.\.|\.\.$|<|>|(?:^|[^A-Za-z])(?:your|YOUR|Your)|example|EXAMPLE|Example|placeholder|PLACEHOLDER|change[_-]?me|CHANGE[_-]?ME|redacted|REDACTED|dummy|DUMMY|insert[_-]|INSERT[_-]|replace[_-]?me|REPLACE[_-]?ME|[_-]here|[_-]HERE/;

/** Documentation stand-ins: `xxxx`, `****`, `<...>`, a value cut off with `..`, `your_token`, `EXAMPLE`, `changeme`. */
export function hasPlaceholderWords(value: string): boolean {
  return PLACEHOLDER_WORDS.test(value);
}

/** A single character repeated `min` times or more covering a quarter of the value. */
export function hasLongRun(value: string, min = 8): boolean {
  let run = 1;
  let longest = 1;
  for (let i = 1; i < value.length; i++) {
    if (value.charCodeAt(i) === value.charCodeAt(i - 1)) {
      run++;
      if (run > longest) longest = run;
    } else run = 1;
  }
  return longest >= min && longest * 4 >= value.length;
}

/** Runs such as `abcdefg` or `1234567`, which random secrets almost never contain. */
export function hasAscendingSequence(value: string, min = 7): boolean {
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const p = value.charCodeAt(i - 1);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum && c === p + 1) {
      run++;
      if (run >= min) return true;
    } else run = 1;
  }
  return false;
}

/** The default acceptance test for a shaped token: no obvious stand-in. */
export function notPlaceholder(value: string): boolean {
  return !hasLongRun(value) && !hasPlaceholderWords(value) && !looksLikeTemplate(value);
}

const CODE_PART = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * `process.env.API_KEY`, `var.db_password`, `opts?.secret`, `+obj.ratio`:
 * a dotted chain of identifiers, unless a part is long and mixes in digits
 * the way a random token does (`s.ZC9Ecf4M5g9o34Q6RkzGsj0z`).
 */
export const isCodeReference = memoized(function isCodeReference(value: string): boolean {
  // No dot, no chain (the rewrites below only turn `?.` and `!.` into `.`).
  if (value.indexOf('.') < 0) return false;
  const chain = value
    .replace(/^[+!-]/, '')
    .replace(/[?!]\./g, '.')
    .replace(/[.?!]$/, '');
  if (chain.indexOf('.') < 0) return false;
  for (const part of chain.split('.')) {
    if (!CODE_PART.test(part)) return false;
    if (part.length >= 16 && /[0-9]/.test(part) && !looksLikeIdentifier(part.replace(/_/g, ''))) return false;
  }
  return true;
});

/**
 * Letters whose case flips the way a random base62 or base64 string's does
 * and a name's never does: three or more single lower-case letters between
 * capitals (`YXNkZmZm`). Names put a lower-case run of two or more after
 * each capital (`AccessKey`, `HTTPServer`); a random value without a digit
 * (about 2 % of 22-character base62 keys, more of longer base64 ones) has
 * about one such letter per eight characters.
 */
export function randomCaseMix(value: string): boolean {
  let n = 0;
  for (let i = 1; i + 1 < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 97 || c > 122) continue;
    const a = value.charCodeAt(i - 1);
    const b = value.charCodeAt(i + 1);
    if (a >= 65 && a <= 90 && b >= 65 && b <= 90 && ++n >= 3) return true;
  }
  return false;
}

/**
 * A type, variable or constant name (`OAuth2Client`, `SOCKS5_NO_AUTH`,
 * `InterpolationInJSX`): at most two digits, and every run of two or more
 * letters has a vowel or is a short acronym, which a random token almost
 * never manages.
 */
export function looksLikeIdentifier(value: string): boolean {
  // Three digits anywhere make it no name (the test below, read without a regex).
  let digits = 0;
  for (let i = 0; i < value.length && digits < 3; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  if (digits >= 3) return false;
  const core = value.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(core) || /[0-9][^0-9]*[0-9][^0-9]*[0-9]/.test(core)) return false;
  let long = false;
  for (const chunk of core.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? []) {
    if (chunk.length < 2) continue;
    // Short capital runs are acronyms (JSX, SQL, HTTP) and need no vowel.
    const acronym = chunk.length <= 5 && /^[A-Z]+$/.test(chunk);
    if (!acronym && !/[aeiouyAEIOUY]/.test(chunk)) return false;
    if (chunk.length >= 4) long = true;
  }
  return long;
}

/** Template syntax anywhere in the value: `key-${i}`, `{{ .Values.x }}`, `#{x}`, `%(x)s`. */
export function hasTemplateSyntax(value: string): boolean {
  return /\$\{|\{\{|#\{|%\(/.test(value);
}

/** Decodes standard or URL-safe base64, or returns null if it is not base64. */
export function decodeBase64(value: string): Buffer | null {
  const trimmed = value.replace(/=+$/, '');
  if (trimmed.length < 4 || !/^[A-Za-z0-9+/_-]+$/.test(trimmed)) return null;
  return Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Printable ASCII (plus tab), the shape of a decoded `user:password`. */
export function isPrintableAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b < 0x20 || b > 0x7e) return false;
  return bytes.length > 0;
}

// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG), table built on first use.
let crcTable: Uint32Array | null = null;

/** CRC-32 of the latin1 bytes of `text`. */
export function crc32(text: string): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = crcTable[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * GitHub's token formats of 2021 (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and
 * 36 base62 characters), which npm's tokens (`npm_`) follow too: the last
 * six characters are the CRC-32 of the 30 before them, in base62 with
 * leading zeros (GitHub's engineering blog, "Behind GitHub's new
 * authentication token formats", and "Announcing npm's new access token
 * format"). A value that passes was minted by that generator; one typed by
 * hand passes once in 5.7e10.
 */
export function base62Crc32Valid(token: string): boolean {
  if (token.length !== 40 || token[3] !== '_') return false;
  let crc = crc32(token.slice(4, 34));
  let encoded = '';
  for (let i = 0; i < 6; i++) {
    encoded = BASE62[crc % 62]! + encoded;
    crc = Math.floor(crc / 62);
  }
  return crc === 0 && encoded === token.slice(34);
}
