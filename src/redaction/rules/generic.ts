import { shannonEntropy } from '../entropy.js';
import { hasAscendingSequence, hasLongRun, hasPlaceholderWords, hasTemplateSyntax, isCodeReference, looksLikeIdentifier, looksLikeTemplate, randomCaseMix } from '../filters.js';
import { assignmentFollows, maxMatchLength, type Precheck } from '../prechecks.js';
import { ASSIGN_OPERATOR, Specificity, type MatchContext, type Rule } from '../rule.js';
import { memoized } from '../value-facts.js';

// The value of an assignment. Unquoted, it ends at a space, quote, bracket
// or separator; quoted, at the closing quote (so `&`, `;` and `,` may occur).
// Both are bounded, and a look-ahead rejects a longer run instead of
// truncating it: a blob longer than that is not a password.
const VALUE_CHAR = '[^\\x00-\\x20"\'`\\\\<>;,(){}\\[\\]&\\x7f]';
const QUOTED_CHAR = (q: string) => `[^\\x00-\\x20${q}\\\\\\x7f]`;
const ESCAPES = '\\\\{0,3}';
const XML_SPACE = '(?:[ \\t\\r\\n]|\\\\[nrt]){0,32}';

function valueAlternatives(min: number): string {
  const quoted = (q: string) => `${ESCAPES}${q}(${QUOTED_CHAR(q)}{${min},256})${ESCAPES}${q}`;
  // A value quoted twice, the inner quotes escaped or of the other kind: a
  // string literal that holds a string literal, as Gradle's buildConfigField,
  // C defines and generated code write it (`"\"v\""`, `'"v"'`).
  const nested = `${ESCAPES}["']${ESCAPES}["'](${QUOTED_CHAR('"\'')}{${min},256})${ESCAPES}["']${ESCAPES}["']`;
  return [
    `${ASSIGN_OPERATOR}(?:${nested}|${quoted('"')}|${quoted("'")}|${quoted('`')}|(${VALUE_CHAR}{${min},256})(?!${VALUE_CHAR}))`,
    // `<fooToken>\n  value\n</fooToken>`, line breaks possibly escaped.
    `>${XML_SPACE}(${VALUE_CHAR}{${min},256})${XML_SPACE}<\\/`,
  ].join('|');
}

const REST_OF_NAME = '[A-Za-z0-9_.-]{0,40}';

const NAME_CHAR = /[A-Za-z0-9_.-]/;
const isNameChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;

interface Name {
  /** The whole identifier around the keyword, e.g. `db_password_hash`, and where it lies. */
  readonly full: string;
  readonly start: number;
  readonly end: number;
  /** Lower-cased words of the identifier (camelCase, snake, kebab and dots split). */
  readonly words: readonly string[];
  /** What follows the keyword inside the identifier, lower-cased. */
  readonly after: string;
}

function nameAround(ctx: MatchContext, keywordLength: number): Name {
  const { text, matchStart } = ctx;
  let s = matchStart;
  while (s > 0 && matchStart - s < 64 && isNameChar(text.charCodeAt(s - 1))) s--;
  let e = matchStart;
  while (e < text.length && e - matchStart < 64 && isNameChar(text.charCodeAt(e))) e++;
  const full = text.slice(s, e);
  return { full, start: s, end: e, words: nameWords(full), after: text.slice(matchStart + keywordLength, e).toLowerCase() };
}

const isDigitOrLower = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isUpper = (c: number): boolean => c >= 65 && c <= 90;

/**
 * The lower-cased words of a name: runs of letters and digits, split where
 * a capital follows a lower-case letter or digit (`dbPassword_hash2` is
 * `db`, `password`, `hash2`). Read in one pass: it runs for every finding
 * of the generic rules, where the three regex passes it replaces cost more
 * than the rest of the name tests together.
 */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= name.length; i++) {
    const c = i < name.length ? name.charCodeAt(i) : 0;
    const word = isDigitOrLower(c) || isUpper(c);
    if (start >= 0 && (!word || (isUpper(c) && isDigitOrLower(name.charCodeAt(i - 1))))) {
      words.push(name.slice(start, i).toLowerCase());
      start = -1;
    }
    if (word && start < 0) start = i;
  }
  return words;
}

// Name parts that say the value is about a secret rather than the secret:
// its length, file, URL, id, type; or a token that is not a credential
// (pagination, CSRF, tokenizer, LLM token counts).
const DENY_WORDS = new Set([
  'id',
  'ids',
  'url',
  'uri',
  'urls',
  'endpoint',
  'name',
  'names',
  'file',
  'files',
  'filename',
  'path',
  'dir',
  'length',
  'len',
  'size',
  'type',
  'types',
  'kind',
  'count',
  'counts',
  'num',
  'number',
  'min',
  'max',
  'limit',
  'format',
  'mode',
  'policy',
  'hint',
  'label',
  'prompt',
  'field',
  'fields',
  'header',
  'param',
  'ref',
  'regex',
  'pattern',
  'version',
  'expiry',
  'expires',
  'expiration',
  'ttl',
  'timeout',
  'enabled',
  'required',
  'public',
  'csrf',
  'xsrf',
  'antiforgery',
  'next',
  'page',
  'continuation',
  'cursor',
  'pagination',
  'sync',
  'idempotency',
  'cancellation',
  'input',
  'output',
  'completion',
  'cache',
  'hash',
  'hashed',
  'salt',
  'placeholder',
  'manager',
  'method',
  'methods',
  'location',
  'arn',
  'template',
  'validator',
  'validation',
  'error',
  'strength',
  'encoder',
  'lifetime',
  'primary',
  'foreign',
  'sort',
  'partition',
  'row',
  'lookup',
  'map',
  'index',
  'column',
  'shard',
  'routing',
  // Plurals name collections and settings blocks, not one value.
  'secrets',
  'tokens',
  'passwords',
]);

// Lower-case words that, glued in front of a keyword, still make a secret's
// name (`authtoken`, `clientsecret`); any other glued word (`jsonwebtoken`)
// means the keyword is just part of a longer word.
const GLUED_PREFIXES = /(?:auth|access|api|app|bot|client|bearer|refresh|session|user|admin|master|private|shared|secret|oauth|db|id|my|service|deploy|bot|webhook|signing|encryption|root|sa)$/;

function keywordStartsName(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const first = text.charCodeAt(at);
  const lowerBefore = before >= 97 && before <= 122;
  if (!lowerBefore) return true;
  if (first >= 65 && first <= 90) return true; // camelCase boundary
  let s = at;
  while (s > 0 && isLetter(text.charCodeAt(s - 1))) s--;
  return GLUED_PREFIXES.test(text.slice(s, at).toLowerCase());
}

// Words that only appear in made-up values, in one case as people type them:
// a random token has `moCk` or `DeMo` in it now and then.
const STOP = ['hello', 'world', 'thing', 'other', 'lorem', 'ipsum', 'dummy', 'sample', 'mock', 'fake', 'demo', 'foobar'];
const STOPWORDS = new RegExp(STOP.flatMap((w) => [w, w.toUpperCase(), w[0]!.toUpperCase() + w.slice(1)]).join('|'));
// Four capitalised words in a row: a type or identifier name
// (`AgencyIdentificationCodeContentType`); about one in a million positions
// of a random base62 token starts such a run.
const CAMEL_WORDS = /(?:[A-Z][a-z]{3,}){4}/;
// Dates: beta names and versions carry them (`token-counting-2024-11-01`), keys do not.
const DATE_LIKE = /(?:19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]/;
// 1.2.3 versions and 10.0.0.1 addresses.
const VERSION_LIKE = /(?:^|[^A-Za-z0-9])[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,5}(?:$|[^A-Za-z0-9])/;

/**
 * A comma between name and value only makes an assignment in a call such as
 * `setProperty("NAME", "value")`; elsewhere (`paths: ['password', 'x']`,
 * markdown lists) it separates unrelated items.
 */
function commaOutsideCall(text: string, name: Name, secretStart: number): boolean {
  if (text.slice(name.end, secretStart).indexOf(',') < 0) return false;
  const before = text.slice(Math.max(0, name.start - 80), name.start);
  return !/\([ \t]{0,4}\\{0,2}["']$/.test(before) && !GRADLE_FIELD.test(before);
}

// Android's Gradle build (Groovy or Kotlin): `buildConfigField "String",
// "API_KEY", "\"v\""` and `resValue 'string', 'api_key', 'v'` name the value
// in their second argument, after a quoted type.
const GRADLE_FIELD = /(?:buildConfigField|resValue)[ \t(]{1,4}\\{0,2}["'][A-Za-z.]{1,40}\\{0,2}["'][ \t]{0,4},[ \t]{0,4}\\{0,2}["']$/;

/** Whether a lower-cased word of a name says its value is about a secret rather than one. */
export function isDeniedNameWord(word: string): boolean {
  return DENY_WORDS.has(word);
}

function hasDeniedName(name: Name): boolean {
  if (/^(?:izer|ize|ization|ized|s?_?(?:count|limit))/.test(name.after)) return true;
  // Vault AppRole's secret_id is itself a credential.
  const secretId = /secret[_.-]?id/i.test(name.full);
  return name.words.some((w) => DENY_WORDS.has(w) && !(secretId && w === 'id'));
}

const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\//;
// Relative paths, absolute paths under a usual root, and key/config file names.
const PATH_LIKE =
  /^(?:\.{1,2}\/|~\/|\/(?:etc|var|run|tmp|home|usr|opt|mnt|srv|root|app|data|secrets?|certs?|keys?|config|workspace|Users)\/)|\.(?:pem|key|json|txt|ya?ml|crt|cer|p12|pfx|der|jks|keystore|env|cfg|conf|ini|xml|pub|js|ts|py|go|rb|sh)$/i;
const EMAIL_LIKE = /^[^@]+@[^@]+\.[A-Za-z]{2,}$/;
const WORDISH = /^[A-Za-z_.-]+$/;
const SYMBOL = /[+/=!@#$%^*~?|:]/;
const CALL_LIKE = /[A-Za-z_][A-Za-z0-9_]{1,40}!?\([^)]{0,200}(?:\)|$)|::(?:[A-Za-z_<]|$)|\[:?[A-Za-z_][A-Za-z0-9_]{0,40}\]\./;
const LABEL_KEY = /^[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}\/[a-z0-9_.-]{1,63}$/;

// Values that are code around a name rather than a value given to it: a CSS
// selector or anchor (`#add-password`, `.reset-password`), a lower-case path
// from the root or a controller#action route (`/en/enterprise-server@3.0/auth`,
// `cms/sites/passwords#edit`; a random key has capitals or `+` long before
// its second `/`), the text
// between two string literals (`"Password:",rememberMeLabel:"…"`), and a
// shell variable inside the other kind of quotes (`'$DB_PASSWORD'`).
const SELECTOR = /^[#.][a-z][a-z0-9_-]+$/;
const LOWER_PATH = /^\/(?:[a-z0-9_.@~-]+\/)+[a-z0-9_.@~-]*$|^(?:[a-z0-9_.-]+\/)+[a-z0-9_.-]+#[a-z_]+$/;
const BETWEEN_LITERALS = /^[,;]/;
const QUOTED_VARIABLE = /^(["'])\$[A-Za-z_{(]/;

const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);

/** What every generic candidate must pass, whatever its name says. */
// Which characters a value holds, read in one pass: most of plausibleValue's
// tests can only match a value that holds a particular character (a URL a
// `:`, a path a `/` or `.`, a date a `-`), and a random key often holds none
// of them, so the test is not run. test/unit/redaction/value-facts.test.ts
// checks every gate against its regex.
export const Has = {
  digit: 1,
  upper: 2,
  lower: 4,
  slash: 8,
  dot: 16,
  colon: 32,
  at: 64,
  dash: 128,
  braceOrParen: 256,
  /** Outside `\x21-\x7e`: a control, space, DEL or non-ASCII character. */
  unprintable: 512,
} as const;

/** The `Has` bits of the characters of `value`. */
export function charFacts(value: string): number {
  let facts = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) facts |= Has.lower;
    else if (c >= 65 && c <= 90) facts |= Has.upper;
    else if (c >= 48 && c <= 57) facts |= Has.digit;
    else if (c < 0x21 || c > 0x7e) facts |= Has.unprintable;
    else if (c === 47) facts |= Has.slash;
    else if (c === 46) facts |= Has.dot;
    else if (c === 58) facts |= Has.colon;
    else if (c === 64) facts |= Has.at;
    else if (c === 45) facts |= Has.dash;
    else if (c === 123 || c === 40) facts |= Has.braceOrParen;
  }
  return facts;
}

/**
 * The regex tests of plausibleValue, each with the characters (`Has` bits,
 * any one of them) a value must hold for it to match; 0: always run.
 */
export const PLAUSIBLE_GATES: readonly { readonly test: RegExp | ((value: string) => boolean); readonly needs: number }[] = [
  { test: LOWER_PATH, needs: Has.slash },
  { test: hasTemplateSyntax, needs: Has.braceOrParen },
  { test: VERSION_LIKE, needs: Has.dot },
  { test: DATE_LIKE, needs: Has.dash },
  { test: CAMEL_WORDS, needs: Has.upper },
  { test: URL_LIKE, needs: Has.colon },
  { test: PATH_LIKE, needs: Has.slash | Has.dot },
  { test: EMAIL_LIKE, needs: Has.at },
];

/** What every generic candidate must pass, whatever its name says. */
const plausibleValue = memoized(function plausibleValue(value: string): boolean {
  const facts = charFacts(value);
  // Credentials are ASCII; text in another script is prose, not a key.
  if ((facts & Has.unprintable) !== 0) return false;
  // SELECTOR, BETWEEN_LITERALS, QUOTED_VARIABLE and looksLikeTemplate are read at the first character.
  const first = value.charCodeAt(0);
  if ((first === 35 || first === 46) && SELECTOR.test(value)) return false;
  if ((first === 44 || first === 59) && BETWEEN_LITERALS.test(value)) return false;
  if ((first === 34 || first === 39) && QUOTED_VARIABLE.test(value)) return false;
  if (looksLikeTemplate(value) || hasPlaceholderWords(value)) return false;
  if (hasLongRun(value, 6) || hasAscendingSequence(value, 10) || STOPWORDS.test(value)) return false;
  for (const gate of PLAUSIBLE_GATES) {
    if ((facts & gate.needs) === 0) continue;
    if (typeof gate.test === 'function' ? gate.test(value) : gate.test.test(value)) return false;
  }
  if (isCodeReference(value)) return false;
  // Letters with - _ . only: a word, identifier or constant name, not a key
  // (unless the case mix is a random string's).
  if ((facts & Has.digit) === 0 && WORDISH.test(value) && !randomCaseMix(value)) return false;
  // Code read as an assignment (`tri!(kseed.deserialize(x))`, `param[:idx].strip(c)`,
  // `token::Brace::default()`) and label keys (`kubernetes.io/hostname`).
  if ((value.includes('(') || value.includes('::') || value.includes('].')) && CALL_LIKE.test(value)) return false;
  if ((facts & Has.slash) !== 0 && LABEL_KEY.test(value)) return false;
  return true;
});

/** Entropy floor that allows for short values and small alphabets. */
function entropyFloor(value: string): number {
  const n = value.length;
  if (/^[0-9]+$/.test(value)) return n >= 16 ? 2.5 : Infinity;
  const lengthCap = Math.log2(n) * 0.82;
  const alphabetCap = /^[0-9a-fA-F-]+$/.test(value) ? 2.8 : 3.5;
  return Math.min(lengthCap, alphabetCap);
}

const UPPER_SNAKE = /^[A-Z0-9_]+$/;

// Names of keys: snake, kebab, dotted, glued, and in prose with a space
// (`the secret access key - '…'`, `api key: …`).
const API_KEY_NAMES =
  'token|secret|api[ _.-]?key|access[ _.-]?key|private[ _.-]?key|auth[ _.-]?key|(?:subscription|license|signing|master|account|admin|sdk|app|client|secret)[ _.-]key|credential|creds|_key|_auth';

/**
 * A value that reads like a random key (for rules whose context is weaker
 * than a name). A type or variable name is not one; passwords may look like
 * one (`thisIsDog11`), keys do not.
 */
export const keyLikeValue = memoized(function keyLikeValue(value: string): boolean {
  if (!/[0-9]/.test(value) && !SYMBOL.test(value) && !randomCaseMix(value)) return false;
  if (!plausibleValue(value) || looksLikeIdentifier(value)) return false;
  return shannonEntropy(value) >= entropyFloor(value);
});

/** A value that reads like a password someone chose or generated. */
export const passwordLikeValue = memoized(function passwordLikeValue(value: string): boolean {
  if (!/[0-9]/.test(value) && !SYMBOL.test(value) && !randomCaseMix(value)) return false;
  if (STAND_IN_PASSWORDS.test(value) || PUNCTUATED_WORD.test(value) || !plausibleValue(value)) return false;
  return shannonEntropy(value) >= Math.min(2.5, Math.log2(value.length) * 0.8);
});

// The name at a generic-api-key match (every alternative is shorter than 20 characters).
const API_KEY_NAME_AT = new RegExp(`(?:${API_KEY_NAMES})`, 'iy');

// Cheap tests on the value come first: most candidates in code are
// expressions and fail them before the name is looked at.
function acceptApiKey(value: string, ctx: MatchContext): boolean {
  if (!keyLikeValue(value)) return false;
  API_KEY_NAME_AT.lastIndex = ctx.matchStart;
  const keyword = API_KEY_NAME_AT.exec(ctx.text)?.[0];
  if (keyword === undefined) return false;
  // `_key`/`_auth` begin with their own separator; other names must start a word.
  if (!keyword.startsWith('_') && !keywordStartsName(ctx.text, ctx.matchStart)) return false;
  const name = nameAround(ctx, keyword.length);
  // A bare `_KEY` suffix only counts in an environment-style name, and a bare
  // `_auth` only at the end of a name (`user_auth`, `NPM_AUTH`).
  const k = keyword.toLowerCase();
  // Lower-case `*_key` names are often not secrets (`sort_key`, `cache_key`): demand a long value.
  if (k === '_key' && !(UPPER_SNAKE.test(name.full) && name.full.endsWith('_KEY')) && value.length < 20) return false;
  if (k === '_auth' && !name.full.toLowerCase().endsWith('_auth')) return false;
  return !hasDeniedName(name) && !commaOutsideCall(ctx.text, name, ctx.secretStart);
}

// A capitalised word and the punctuation that ends a label or a sentence
// (`"one_time_password": "Engangskode:"`, `Passord.`): UI text whose only
// symbol is that mark, not a password. Lower-case words stay candidates
// (`"application:"` before a concatenated secret is one in Nosey Parker).
const PUNCTUATED_WORD = /^[A-Z\u00C0-\u00DE][a-z\u00DF-\u024F]+[:.,;]$/;

// Stand-ins from docs and tests, alone or with a number (`secret123`, `password1!`).
const STAND_IN_PASSWORDS =
  /^(?:password|passwd|pass|secret|changeme|default|admin|root|test|user|qwerty|letmein|welcome|none|null|nil|true|false|empty|required|optional|string|hunter)[-_]?[0-9]{0,6}!?$/i;

const PASSWORD_NAME_AT = /(?:password|passwd|passphrase|pwd)/iy;

function acceptPassword(value: string, ctx: MatchContext): boolean {
  if (!passwordLikeValue(value)) return false;
  PASSWORD_NAME_AT.lastIndex = ctx.matchStart;
  const keyword = PASSWORD_NAME_AT.exec(ctx.text)?.[0];
  if (keyword === undefined || !keywordStartsName(ctx.text, ctx.matchStart)) return false;
  const name = nameAround(ctx, keyword.length);
  return !hasDeniedName(name) && !commaOutsideCall(ctx.text, name, ctx.secretStart);
}

// Glued words before `pass` that make a password's name (`dbpass`,
// `userpass`, `smtppass`); any other (`bypass`, `compass`) makes another word.
const PASS_PREFIXES = /(?:db|user|admin|root|smtp|mail|ftp|proxy|store|key|ldap|redis|mysql|pg|sql|auth|api|app|bind|web|sys|rpc|vnc|wifi|my)$/;

// Most `pass` hits are `password` and `passive`: the name must end at `pass`.
const assignmentAfterPass = assignmentFollows(6);
const passEndsName: Precheck = (text, at, memo) => !NAME_CHAR.test(text[at + 4] ?? ' ') && assignmentAfterPass(text, at, memo);

// `DB_PASS=…`, `dbpass: …`, `userpass=…`, `smtpPass = "…"`: `pass` ends the
// name and is its own word (after _ . - or a camelCase capital) or glued to
// a word from the list above.
function acceptPassName(value: string, ctx: MatchContext): boolean {
  if (!passwordLikeValue(value)) return false;
  const { text, matchStart: at } = ctx;
  const first = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  if (before >= 97 && before <= 122 && !(first >= 65 && first <= 90)) {
    let s = at;
    while (s > 0 && /[a-z]/.test(text[s - 1]!)) s--;
    if (!PASS_PREFIXES.test(text.slice(s, at))) return false;
  } else if ((before >= 65 && before <= 90) || (before >= 48 && before <= 57)) {
    // `DBPASS`, `PASS2`: an upper-case run or a digit glued on is not a word boundary we can read.
    if (!(first >= 65 && first <= 90 && before >= 65 && before <= 90 && PASS_PREFIXES.test(lowerRunBefore(text, at)))) return false;
  }
  const name = nameAround(ctx, 4);
  return !hasDeniedName(name) && !commaOutsideCall(text, name, ctx.secretStart);
}

function lowerRunBefore(text: string, at: number): string {
  let s = at;
  while (s > 0 && /[A-Z]/.test(text[s - 1]!)) s--;
  return text.slice(s, at).toLowerCase();
}

function acceptCamelKey(value: string, ctx: MatchContext): boolean {
  if (!keyLikeValue(value) || value.length < 16) return false;
  const name = nameAround(ctx, 3);
  return !hasDeniedName(name) && !commaOutsideCall(ctx.text, name, ctx.secretStart);
}

// `(?<=[a-z0-9])Key…`: the look-behind, then what follows the name.
// The name runs from `Key` to the end of `Key(?:[A-Z][a-z]{1,12})?` (and the `.` of `.=`).
const keyAssignment = assignmentFollows(16, maxMatchLength('Key(?:[A-Z][a-z]{1,12})?') + 1);
const camelKeyFollows: Precheck = (text, at, memo) => {
  const c = text.charCodeAt(at - 1);
  return ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) && keyAssignment(text, at, memo);
};

export const genericRules: readonly Rule[] = [
  {
    id: 'generic-camel-key',
    description: 'A high-entropy value (16+ characters) assigned to a camelCase name ending in Key (apiKey, cosmosKey, mapsSubscriptionKey); name and shape filters as for generic-api-key.',
    keywords: ['Key'],
    pattern: new RegExp(`(?<=[a-z0-9])Key(?:[A-Z][a-z]{1,12})?(?:${valueAlternatives(16)})`),
    precheck: camelKeyFollows,
    specificity: Specificity.generic,
    accept: acceptCamelKey,
  },
  {
    id: 'generic-api-key',
    description:
      'A high-entropy value assigned to a name containing token, secret, api_key, access_key, private_key, auth_key, credential or an UPPER_SNAKE *_KEY; entropy, placeholder and name filters applied.',
    keywords: [
      'token',
      'secret',
      'api_key',
      'api-key',
      'api.key',
      'apikey',
      'access_key',
      'access-key',
      'access.key',
      'accesskey',
      'private_key',
      'private-key',
      'private.key',
      'privatekey',
      'auth_key',
      'auth-key',
      'authkey',
      'credential',
      'creds',
      '_key',
      '_auth',
      'api key',
      'access key',
      'private key',
      'auth key',
      ...['subscription', 'license', 'signing', 'master', 'account', 'admin', 'sdk', 'app', 'client', 'secret'].flatMap((w) => [' ', '_', '-', '.'].map((sep) => `${w}${sep}key`)),
    ],
    pattern: new RegExp(`(?:${API_KEY_NAMES})${REST_OF_NAME}(?:${valueAlternatives(10)})`, 'i'),
    precheck: assignmentFollows(10, maxMatchLength(`(?:${API_KEY_NAMES})${REST_OF_NAME}`) + 1),
    specificity: Specificity.generic,
    accept: acceptApiKey,
  },
  {
    id: 'generic-password',
    description: 'A value assigned to a name containing password, passwd, passphrase or pwd; template, stand-in and name filters applied.',
    keywords: ['password', 'passwd', 'passphrase', 'pwd'],
    pattern: new RegExp(`(?:password|passwd|passphrase|pwd)${REST_OF_NAME}(?:${valueAlternatives(6)})`, 'i'),
    precheck: assignmentFollows(6, maxMatchLength(`(?:password|passwd|passphrase|pwd)${REST_OF_NAME}`) + 1),
    specificity: Specificity.generic + 1,
    accept: acceptPassword,
  },
  {
    id: 'generic-pass-name',
    description: 'A password-like value assigned to a name that ends in the word pass: DB_PASS, dbpass, userpass, smtpPass (not bypass, compass); stand-in and name filters applied.',
    keywords: ['pass'],
    pattern: new RegExp(`[Pp][Aa][Ss][Ss](?:${valueAlternatives(6)})`),
    precheck: passEndsName,
    specificity: Specificity.generic + 1,
    accept: acceptPassName,
  },
];
