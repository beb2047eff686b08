// Credentials on command lines and in log lines, where no assignment to a
// telling name surrounds them: `docker login -p …`, `--password=…`,
// `echo "…" | docker login --password-stdin`, `[DEBUG] Using Key=…`.
import { isCodeReference, looksLikeTemplate } from '../filters.js';
import { keyThenLongValue, maxMatchLength, wordWithin } from '../prechecks.js';
import { Specificity, type Rule } from '../rule.js';
import { keyLikeValue, passwordLikeValue } from './generic.js';

// A shell word: no whitespace or quotes; a quoted one may not hold its quote.
const WORD = '[^\\x00-\\x20"\'`\\\\]{6,256}';
const OPEN = '(?:\\\\{0,3}["\'])?';

const REGISTRY_CLIS = '(?:docker|podman|nerdctl|buildah|oras|crane|helm[ \\t]{1,4}registry|skopeo)';

function acceptFlagValue(value: string): boolean {
  if (looksLikeTemplate(value) || isCodeReference(value)) return false;
  // `--password-file=/run/secrets/x`, `--token $(cat x)`: a reference, not the value.
  if (/^[~./]|^\$/.test(value)) return false;
  // `--ask-password https://host`: a flag without a value, then a URL.
  if (/^[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\//.test(value)) return false;
  return value.includes(':') ? passwordLikeValue(value.slice(value.indexOf(':') + 1)) : passwordLikeValue(value) || keyLikeValue(value);
}

// Keys that are public or are not credentials at all.
const NOT_SECRET_KEYS = /(?:publishable|public|site|primary|foreign|partition|sort|cache|idempotency|row|lookup|map|routing|dedup|ssh|gpg|pgp)[ _-]?$/i;

// A secret's name given as data next to its value, not as the key it is
// assigned to: `{"name": "DB_PASSWORD", "value": "…"}` (container env lists,
// task definitions, API payloads), `- name: X` / `value: …` in YAML,
// `<add key="X" value="…"/>`, `<property name="X" value="…"/>`.
const SECRET_NAME = /(?:token|secret|passw(?:or)?d|pwd|passphrase|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|credential|auth|_key$|key$|(?:^|[_.-])pass$)/i;
const NOT_SECRET_NAME = /(?:_id|_url|_uri|_name|_file|_path|_host|_user(?:name)?|_region|_version)$|^(?:key|auth)$/i;
const Q = '\\\\{0,3}["\']?';
// The same with `key` as the name's field (`{"key": "password", "value": …}`,
// `- key: X` / `value: …`, `<key>X</key><value>…</value>`), as settings
// stores and key/value tag lists write it.
const PAIR_SPACE = '(?:[ \\t\\r\\n]|\\\\[nrt]){0,40}';
// A numbered twin (`name1`/`value1`) is the same record written twice.
// A value is up to 256 characters of any kind, or a base64 run of up to
// 4,096 that ends where the value does (long generated passwords and
// keys); the long form takes no `=`, `,` or `:` inside, so a run of
// `name=…,value=…` pairs with no space is not read 4,096 characters at a
// time from every one of them.
const PAIR_VALUE = '[^\\x00-\\x20"\'`\\\\<>]';
const PAIR_LONG_OR_SHORT = `[A-Za-z0-9+/_-]{257,4096}={0,2}(?!${PAIR_VALUE})|${PAIR_VALUE}{6,256}`;
const NAME_VALUE_HEAD =
  `(?:(?:name|key)[0-9]{0,2}${Q}[ \\t]{0,4}[:=][ \\t]{0,4}${Q}[A-Za-z0-9_.-]{2,80}${Q}[ \\t]{0,4},?${PAIR_SPACE}(?:-[ \\t]{1,4})?${Q}value[0-9]{0,2}${Q}[ \\t]{0,4}[:=][ \\t]{0,4}${Q}` +
  `|<key>[A-Za-z0-9_.-]{2,80}<\\/key>${PAIR_SPACE}<value>` +
  `|(?:key|name)=${Q}[A-Za-z0-9_.:-]{2,80}${Q}[ \\t]{1,8}value=${Q})`;
const NAME_VALUE = new RegExp(`${NAME_VALUE_HEAD}(${PAIR_LONG_OR_SHORT})`);
// The same record with the value first: JSON objects and YAML maps do not
// fix the order of their fields (`{"value": "…", "name": "X_PASSWORD"}`).
// No list dash before the name: that would be the next record's. The value
// takes no `=` but base64 padding, no `,` or `:`, and is read once: the
// lookahead and back-reference make it atomic, so a failed name after it
// costs no backtracking through it (`value=value=…`, `value:aaaa…value:…`).
const VALUE_NAME = new RegExp(
  `value[0-9]{0,2}${Q}[ \\t]{0,4}[:=][ \\t]{0,4}${Q}(?=([^\\x00-\\x20"'\`\\\\<>,:=]{6,256}={0,2}))\\1${Q}[ \\t]{0,4},?${PAIR_SPACE}${Q}(?:name|key)[0-9]{0,2}${Q}[ \\t]{0,4}[:=][ \\t]{0,4}${Q}[A-Za-z0-9_.-]{2,80}`,
);

function acceptNameValue(value: string, ctx: { text: string; matchStart: number; secretStart: number }): boolean {
  const between = ctx.text.slice(ctx.matchStart, ctx.secretStart);
  const name = /^<?(?:name|key)[0-9]{0,2}[ \t"'\\:=>]{1,12}([A-Za-z0-9_.:-]{2,80})/.exec(between)?.[1];
  return pairOk(name, value);
}

function pairOk(name: string | undefined, value: string): boolean {
  if (name === undefined || !SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name)) return false;
  if (looksLikeTemplate(value) || isCodeReference(value)) return false;
  return passwordLikeValue(value) || keyLikeValue(value);
}

// `value` is a common word in prose and code: only `value`, a digit or two,
// a closing quote, `:` or `=` and six characters of a value can start this
// rule's match (not `value=value=…`).
const valueThenOperator = (text: string, at: number): boolean => {
  let i = at + 5;
  const digit = (c: number) => c >= 48 && c <= 57;
  const quoteOrEscape = (c: number) => c === 92 || c === 34 || c === 39;
  if (digit(text.charCodeAt(i))) i++;
  if (digit(text.charCodeAt(i))) i++;
  for (let k = 0; k < 4 && quoteOrEscape(text.charCodeAt(i)); k++) i++;
  for (let k = 0; k < 4 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9); k++) i++;
  const op = text.charCodeAt(i);
  if (op !== 58 && op !== 61) return false;
  i++;
  for (let k = 0; k < 4 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9); k++) i++;
  for (let k = 0; k < 4 && quoteOrEscape(text.charCodeAt(i)); k++) i++;
  if (i + 6 > text.length) return false;
  for (let k = 0; k < 6; k++, i++) {
    const c = text.charCodeAt(i);
    // the value's class: no control or space, quote, backtick, backslash, <, >, comma, colon or =
    if (c <= 32 || c === 34 || c === 39 || c === 96 || c === 92 || c === 60 || c === 62 || c === 44 || c === 58 || c === 61) return false;
  }
  return true;
};

function acceptValueName(value: string, ctx: { text: string; secretEnd: number }): boolean {
  const after = ctx.text.slice(ctx.secretEnd, ctx.secretEnd + 140);
  // Quotes, commas and line breaks, also escaped ones (`\\",\\n  \\"name`), then the name.
  return pairOk(/^(?:[^A-Za-z\\]|\\[nrt"'\\]?){0,60}?(?:name|key)[0-9]{0,2}[ \t"'\\:=]{1,12}([A-Za-z0-9_.-]{2,80})/.exec(after)?.[1], value);
}

// `--tlspassword`: a lower-case word glued before the keyword, then, back
// over at most three dashed words, the option's `--` after a non-word.
const gluedOptionBefore = (text: string, at: number): boolean => {
  let i = at;
  const lower = (c: number) => c >= 97 && c <= 122;
  if (!lower(text.charCodeAt(i - 1))) return false;
  while (i > 0 && at - i < 48 && (lower(text.charCodeAt(i - 1)) || (text.charCodeAt(i - 1) >= 48 && text.charCodeAt(i - 1) <= 57) || text.charCodeAt(i - 1) === 45)) i--;
  if (text.slice(i, i + 2) !== '--' || text.charCodeAt(i + 2) === 45) return false;
  const c = text.charCodeAt(i - 1);
  return !(lower(c) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95);
};

export const commandLineRules: readonly Rule[] = [
  {
    id: 'name-value-pair',
    description:
      'A secret whose name is data beside it: {"name": "X_TOKEN", "value": "…"}, "- name: X_PASSWORD / value: …", {"key": "password", "value": "…"}, <key>password</key><value>…</value>, <add key="XPassword" value="…"/>, <property name="x.secret" value="…"/>.',
    keywords: ['name', 'key=', 'key:', 'key"', "key'", 'key\\', '<key>'],
    pattern: NAME_VALUE,
    // Every match holds `value` before the secret; text full of `key:` and
    // `name=` holds it nowhere near (`apikey='…'` every 13 characters).
    precheck: wordWithin('value', maxMatchLength(NAME_VALUE_HEAD)),
    specificity: Specificity.generic + 1,
    accept: acceptNameValue,
  },
  {
    id: 'value-name-pair',
    description: 'The same with the value first: {"value": "…", "name": "X_PASSWORD"}, "- value: …" / "name: X_TOKEN".',
    keywords: ['value'],
    pattern: VALUE_NAME,
    precheck: valueThenOperator,
    specificity: Specificity.generic + 1,
    accept: acceptValueName,
  },
  {
    id: 'registry-login-password',
    description: 'Container registry password on a command line: docker/podman/nerdctl/buildah/helm registry/oras login … -p <password>.',
    keywords: ['docker', 'podman', 'nerdctl', 'buildah', 'oras', 'crane', 'helm', 'skopeo'],
    pattern: new RegExp(`${REGISTRY_CLIS}[ \\t]{1,4}login[^\\r\\n|;&]{0,200}?[ \\t]-p[ \\t]{1,4}${OPEN}(${WORD})`),
    specificity: Specificity.header,
    accept: acceptFlagValue,
  },
  {
    id: 'registry-password-stdin',
    description: 'A password piped into a registry login: echo <password> | docker login --password-stdin.',
    keywords: ['echo', 'printf'],
    pattern: new RegExp(`(?:echo|printf)(?:[ \\t]{1,4}-[nes])?[ \\t]{1,4}${OPEN}(${WORD})${OPEN}[ \\t]{0,4}\\|[ \\t]{0,4}(?:sudo[ \\t]{1,4})?${REGISTRY_CLIS}[ \\t]{1,4}login`),
    specificity: Specificity.header,
    accept: acceptFlagValue,
  },
  {
    id: 'command-line-secret-flag',
    description:
      'A secret given as a command-line option: --password, --passphrase, --docker-password, --http-password, --token, --api-key, --client-secret, --account-key, --dest-creds and the like.',
    keywords: ['-password', '-passwd', '-passphrase', '-pass', '-token', '-secret', '-api-key', '-apikey', '-access-key', '-account-key', '-auth-key', '-creds', '-credentials', '-key'],
    pattern: new RegExp(
      `(?<![A-Za-z0-9_-])--(?:[a-z0-9]{1,20}-){0,3}(?:password|passwd|passphrase|pass|token|secret|api-key|apikey|access-key|account-key|auth-key|key|creds|credentials)(?:=|[ \\t]{1,4})${OPEN}(${WORD})`,
      'i',
    ),
    window: { before: 60, after: 300 },
    specificity: Specificity.generic + 2,
    accept: acceptFlagValue,
  },
  {
    id: 'command-line-glued-password-flag',
    description: 'A password option with a word glued before password: --tlspassword <v>, --proxy-tlspassword <v>, --dbpassword=<v>.',
    keywords: ['password', 'passwd'],
    pattern: new RegExp(`(?<=(?<![A-Za-z0-9_-])--(?!-)[a-z0-9-]{0,44}[a-z])[Pp][Aa][Ss][Ss][Ww](?:[Oo][Rr])?[Dd](?:=|[ \\t]{1,4})${OPEN}(${WORD})`),
    precheck: gluedOptionBefore,
    specificity: Specificity.generic + 2,
    accept: acceptFlagValue,
  },
  {
    id: 'log-key-value',
    description: 'A key printed in a log or message as Key=<value> or key: <value> (e.g. "[DEBUG] Using Key=…"); high-entropy values only.',
    keywords: ['key=', 'key:', 'key =', 'key :'],
    // Anchored at `key`; what may stand before it is checked behind it.
    pattern:
      /(?<=(?:^|[^A-Za-z0-9_-])(?:api[_-]?|access[_-]?|secret[_-]?|auth[_-]?|private[_-]?|signing[_-]?|license[_-]?|sdk[_-]?|app[_-]?|client[_-]?)?)key[ \t]{0,2}[=:][ \t]{0,2}(?:\\{0,3}["'])?([^\x00-\x20"'`<>,;&\\]{16,256})(?![^\x00-\x20"'`<>,;&\\])/i,
    precheck: keyThenLongValue,
    specificity: Specificity.generic,
    accept: (value, ctx) => keyLikeValue(value) && !isCodeReference(value) && !NOT_SECRET_KEYS.test(ctx.text.slice(Math.max(0, ctx.matchStart - 16), ctx.matchStart)),
  },
];
