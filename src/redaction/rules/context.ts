// A credential found by the name it is given, whatever service it belongs
// to: an identifier that ends in key, token or secret (`fooKey`, `FOO_TOKEN`,
// `foo-secret`, `barkey`, `my.api.key`), then an assignment operator, a
// line break and indentation after one, or only spaces (`fooKey 9f…`, the
// way READMEs, CLIs and chat messages print a key), then a value with the
// character class, length and entropy of a random key. Most small APIs'
// keys are 32 hex or alphanumeric characters with nothing but such a name
// near them, so no per-service rule can list them all; the value's shape
// has to carry the decision. Names that say what the value is about rather
// than what it is (`keyId`, `token_url`, `cache_key`) are turned away, and
// so are values that are not random (identifiers, paths, versions, code).
import type { Precheck } from '../prechecks.js';
import { randomCaseMix } from '../filters.js';
import { Specificity, type MatchContext, type Rule } from '../rule.js';
import { isDeniedNameWord, keyLikeValue, nameWords } from './generic.js';
import { memoized } from '../value-facts.js';

const V = '[A-Za-z0-9+/=_.-]';
// The value: quoted, or bare up to a character that cannot continue it. A
// bare value followed by `(` or `[` is a call or an index, not a key. Each
// value is read once, atomically (a lookahead and a back-reference): a
// shorter run is followed by a value character, so giving characters back
// could never match. And a run stops before the next key, token or secret,
// which `acceptContext` refuses in a value anyway: every keyword hit is
// where a match may start, so without that stop text like `key=key=key=…`
// was read 4,096 characters from every hit (1 MiB of it took about 10 s).
const VC = `(?:(?![Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt])${V})`;
const VALUE = `(?:\\\\{0,3}"(?=(${VC}{16,4096}))\\1\\\\{0,3}"|\\\\{0,3}'(?=(${VC}{16,4096}))\\2\\\\{0,3}'|\`(?=(${VC}{16,4096}))\\3\`|(?=(${VC}{16,4096}))\\4(?![A-Za-z0-9+/=_.(\\[-]))`;
// Between the keyword and the value: the rest of the name, a closing quote
// or `]`, then an operator (with the value possibly on the next line, as
// YAML and formatted code put long ones) or one to four spaces.
// Case-insensitive by hand, so that a lower-case letter right after the
// keyword (`keyboard`, `tokens`) can end the match.
const KEYWORD = '(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt])(?![a-z])';
const XML_SPACE = '(?:[ \\t\\r\\n]|\\\\[nrt]){0,32}';
const LINE_BREAK = '(?:\\r?\\n|(?:\\\\r)?\\\\n)';
const SEPARATOR = `[A-Za-z0-9_.-]{0,24}(?:\\\\{0,3}["'\`])?\\]?(?:[ \\t]{0,4}(?:=>|:=|=|:|->)[ \\t]{0,4}(?:${LINE_BREAK}[ \\t]{0,16})?|[ \\t]{1,4}|>${XML_SPACE})`;

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isNameChar = (c: number): boolean => isLower(c) || isUpper(c) || isDigit(c) || c === 95 || c === 46 || c === 45;
const isValueChar = (c: number): boolean => isNameChar(c) || c === 43 || c === 47 || c === 61;
const isSpace = (c: number): boolean => c === 32 || c === 9;
const isQuote = (c: number): boolean => c === 34 || c === 39 || c === 96;

function keywordLength(text: string, at: number): number {
  const c = text.charCodeAt(at) | 32;
  return c === 107 ? 3 : c === 116 ? 5 : 6;
}

// Most `key` and `token` hits are words in code and prose. Every match needs
// a keyword not glued to a lower-case letter after it (`keyboard`,
// `tokenizer`, `keys`), then the rest of the name, and then an operator or
// spaces followed by 16 value characters: read those before the regex runs.
function valueAfter(text: string, j: number): boolean {
  const n = text.length;
  for (;;) {
    const c = text.charCodeAt(j);
    if (isSpace(c) || c === 10 || c === 13) j++;
    else if (c === 92 && (text.charCodeAt(j + 1) === 110 || text.charCodeAt(j + 1) === 114 || text.charCodeAt(j + 1) === 116)) j += 2;
    else break;
  }
  while (text.charCodeAt(j) === 92) j++;
  if (isQuote(text.charCodeAt(j))) j++;
  const stop = j + 16;
  if (stop > n) return false;
  // The value's run stops before a key, token or secret (VC): text such as
  // `secret_access_key=secret_access_key=…` offered 16 value characters
  // and the regex then found none.
  for (; j < stop; j++) if (!isValueChar(text.charCodeAt(j)) || keywordAt(text, j)) return false;
  return true;
}

/** Whether `key`, `token` or `secret` starts at j, in any case (VC's look-ahead). */
function keywordAt(text: string, j: number): boolean {
  const c = text.charCodeAt(j);
  return c === 75 || c === 107 ? lettersAt(text, j + 1, 'ey') : c === 84 || c === 116 ? lettersAt(text, j + 1, 'oken') : c === 83 || c === 115 ? lettersAt(text, j + 1, 'ecret') : false;
}

/** Whether the lower-case ASCII letters of `word` start at j, in either case. */
function lettersAt(text: string, j: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(j + k);
    const w = word.charCodeAt(k);
    if (c !== w && c !== w - 32) return false;
  }
  return true;
}

const contextFollows: Precheck = (text, at) => {
  const n = text.length;
  let i = at + keywordLength(text, at);
  if (isLower(text.charCodeAt(i))) return false;
  const nameStop = Math.min(n, i + 24);
  while (i < nameStop && isNameChar(text.charCodeAt(i))) i++;
  // `key->…`: the greedy run took the arrow's dash.
  if (text.charCodeAt(i) === 62 && text.charCodeAt(i - 1) === 45) i--;
  for (let k = 0; k < 4 && (text.charCodeAt(i) === 92 || isQuote(text.charCodeAt(i))); k++) i++;
  if (text.charCodeAt(i) === 93) i++;
  const spaceStart = i;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  const c = text.charCodeAt(i);
  const next = text.charCodeAt(i + 1);
  // With spaces before it, the `=` may also be the first character of a bare value.
  const spaced = i > spaceStart && valueAfter(text, i);
  if (c === 61) return spaced || valueAfter(text, i + 1) || (next === 62 && valueAfter(text, i + 2));
  if (c === 58) return valueAfter(text, i + 1) || (next === 61 && valueAfter(text, i + 2));
  if (c === 45 && next === 62) return spaced || valueAfter(text, i + 2);
  // `<acmeKey>…</acmeKey>`
  if (c === 62) return valueAfter(text, i + 1);
  return spaced;
};

// English words that end in key or token and name no credential.
const GLUED_WORDS = /^(?:monkey|turkey|hockey|donkey|whiskey|jockey|lackey|hotkey|passkey|turnkey|latchkey)$/;
// Words of a name that say the value is about a key, not one: in addition
// to the generic rules' list, hashes and digests (`sha`, `digest`,
// `checksum`, `fingerprint`, `signature`), nonces, and key pairs' public halves.
const EXTRA_DENIED = new Set([
  'pubkey',
  'publickey',
  'publishable',
  'site',
  'sha',
  'sha1',
  'sha256',
  'md5',
  'commit',
  'digest',
  'checksum',
  'fingerprint',
  'signature',
  'nonce',
  'etag',
  'keys',
  'pub',
  'host',
  'ssh',
  'gpg',
  'pgp',
  'gpgkey',
]);
// What may follow the keyword inside the name: the name still names the
// credential (`tokenValue`, `KEY_PROD`, `secret_b64`). Anything else makes
// the keyword a qualifier of something else (`key_down_event`, `token_url`).
const TRAILING_OK = new Set(['value', 'val', 'string', 'str', 'b64', 'base64', 'hex', 'raw', 'prod', 'production', 'live', 'test', 'dev', 'staging', 'v1', 'v2', 'v3', 'secret', 'token', 'key']);
// `SalesResults-1.2`, `lib@2.0.1`: a name with a version, not a key.
const VERSION_TAIL = /[-_.@]v?[0-9]{1,4}(?:\.[0-9]{1,4}){1,3}$/;
// Code that names a key (`struct_X509_pubkey_st`) rather than a key: a
// random value spells one of these words about once in a million.
const NAMES_A_KEY = /key|token|secret/i;
// `=` inside a value (`this.type===a.num`) is code, base64 pads only at the
// end; a leading `-` or `.` is an option or a path (`--expires=…`, `./x`).
const CODE_LIKE = /=[^=]|^[-.]/;
const XML_CLOSE = /^(?:[ \t\r\n]|\\[nrt]){0,32}<\//;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The tests on the value alone, remembered like generic.ts's: a value
// repeated through a body is judged once, not at every copy.
const contextValue = memoized((value: string): boolean => !(UUID.test(value) || VERSION_TAIL.test(value) || NAMES_A_KEY.test(value) || CODE_LIKE.test(value)) && keyLikeValue(value));

function acceptContext(value: string, ctx: MatchContext): boolean {
  const { text, matchStart: at } = ctx;
  const kwLength = keywordLength(text, at);
  if (!contextValue(value)) return false;
  let start = at;
  while (start > 0 && at - start < 64 && isNameChar(text.charCodeAt(start - 1))) start--;
  let end = at + kwLength;
  while (end < text.length && end - at < 64 && isNameChar(text.charCodeAt(end))) end++;
  // The lower-case letters glued in front of the keyword make one word with it (`barkey`).
  let glued = at;
  while (glued > start && isLower(text.charCodeAt(glued - 1)) && isLower(text.charCodeAt(at))) glued--;
  if (GLUED_WORDS.test(text.slice(glued, at + kwLength).toLowerCase())) return false;
  const words = nameWords(text.slice(start, end));
  if (words.some((w) => isDeniedNameWord(w) || EXTRA_DENIED.has(w.replace(/[0-9]+$/, '')))) return false;
  if (!nameWords(text.slice(at + kwLength, end)).every((w) => TRAILING_OK.has(w) || /^[0-9]+$/.test(w))) return false;
  // A bare keyword in prose or a header takes its meaning from the word before it (`publishable key: …`).
  const wordBefore = end - start === kwLength ? /([A-Za-z]+)[ \t:]{1,4}$/.exec(text.slice(Math.max(0, start - 24), start))?.[1]?.toLowerCase() : undefined;
  if (wordBefore !== undefined && (isDeniedNameWord(wordBefore) || EXTRA_DENIED.has(wordBefore))) return false;
  const between = text.slice(end, ctx.secretStart);
  // An XML element's text: the element must close right after it.
  if (between.startsWith('>') && text.charCodeAt(start - 1) === 60) return XML_CLOSE.test(text.slice(ctx.secretEnd, ctx.secretEnd + 40));
  const spaced = !/[=:>]/.test(between);
  if (!spaced) return true;
  // Only spaces between name and value: the weakest context, so a value of
  // 20-256 characters with letters and digits (32 if hex), and a bare
  // keyword needs a word before it that is not a denied one (`API key …`,
  // `acme secret …`, `Authorization: token …`; not `ssh key …`).
  if (value.length < 20 || value.length > 256 || !(/[0-9]/.test(value) || randomCaseMix(value)) || !/[A-Za-z]/.test(value)) return false;
  if (/^[0-9a-fA-F]+$/.test(value) && value.length < 32) return false;
  if (end - start === kwLength && wordBefore === undefined) return false;
  return true;
}

export const contextRules: readonly Rule[] = [
  {
    id: 'credential-context',
    description:
      'A random-looking value (16+ key characters; 20+ with letters and digits when only spaces separate it) given to any name ending in key, token or secret: fooKey = "…", FOO_TOKEN: …, barkey …, a YAML value on the next line; names of ids, URLs, hashes and public keys excluded.',
    keywords: ['key', 'token', 'secret'],
    pattern: new RegExp(`${KEYWORD}${SEPARATOR}${VALUE}`),
    precheck: contextFollows,
    specificity: Specificity.generic - 1,
    accept: acceptContext,
  },
];
