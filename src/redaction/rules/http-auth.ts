import { decodeBase64, isCodeReference, isPrintableAscii, looksLikeTemplate, notPlaceholder } from '../filters.js';
import { bearerToken, headerSeparator, maxMatchLength, wordWithin } from '../prechecks.js';
import { shannonEntropy } from '../entropy.js';
import { Specificity, type Rule } from '../rule.js';
import { isRealPassword } from './connection-strings.js';

// curl-user-password up to its option.
const CURL_HEAD = `(?<![A-Za-z0-9_-])curl(?:[^\\r\\n]|\\\\\\r?\\n){0,800}?[ \\t](?:-u|--user)(?:[ \\t]{1,4}|=)\\\\?["']?`;

// Cookies (RFC 6265: a value has no space, quote, comma, semicolon or
// backslash): where a header's (or curl's) cookie list begins, and the names
// that mark a session or a login (JSESSIONID, PHPSESSID, ASP.NET_SessionId,
// connect.sid, sessionid, laravel_session, auth_token, remember_token, sid),
// not a CSRF token, which proves nothing on its own.
const COOKIE_HEAD = `\\\\{0,3}["']?`;
const SESSION_NAME = `(?![A-Za-z0-9_.-]{0,40}?[cx]srf)(?=[A-Za-z0-9_.-]{0,32}?(?:sess|sid|auth|access_?token|remember|jwt))[A-Za-z0-9_.-]{1,64}`;

// A cookie list's header (at most 23 characters) and 16 cookies before the session's, each at most 582.
const SEMICOLON_WITHIN_LIST = wordWithin(';', 23 + 16 * (64 + 1 + 512 + 1 + 4));
// The session cookie first after a `cookie` header: what http-session-cookie needs when no `;` is in reach.
const SESSION_COOKIE_FIRST = new RegExp(`cookie(?:\\\\{0,3}["']?[ \\t]{0,4}:[ \\t]{0,4}|(?:[ \\t]{1,4}|=))${COOKIE_HEAD}${SESSION_NAME}=[A-Za-z0-9%+/_.~:-]{16}`, 'iy');

// A header value token: RFC 7235 token68 plus the characters API keys use.
const TOKEN = '[A-Za-z0-9._~+/-]{16,4096}={0,2}(?![A-Za-z0-9._~+/=-])';

function acceptToken(s: string): boolean {
  return notPlaceholder(s) && !isCodeReference(s) && /[0-9]/.test(s);
}

/** `user:password` from a command line, where either half may be the secret. */
function acceptUserPassword(pair: string): boolean {
  const colon = pair.indexOf(':');
  if (colon < 0) return false;
  const unquote = (s: string) => s.replace(/^\\?["']|\\?["']$/g, '');
  const user = unquote(pair.slice(0, colon));
  const password = unquote(pair.slice(colon + 1));
  if (password.length === 0) return user.length >= 8 && isRealPassword(user) && /[0-9]/.test(user);
  if (password === user || looksLikeTemplate(user)) return false;
  return password.length >= 4 && isRealPassword(password);
}

const API_KEY_HEADERS = '(?:x-api-key|api-key|x-goog-api-key|ocp-apim-subscription-key|private-token|x-auth-token|x-access-token)';

export const httpAuthRules: readonly Rule[] = [
  {
    id: 'http-basic-auth',
    description: 'HTTP Basic credentials: base64 of user:password after "Basic".',
    keywords: ['basic '],
    pattern: /(?<![A-Za-z0-9])[Bb]asic[ \t]{1,4}([A-Za-z0-9+/]{8,1024}={0,2})(?![A-Za-z0-9+/=])/,
    specificity: Specificity.header,
    accept: (s) => {
      const bytes = decodeBase64(s);
      if (bytes === null || !isPrintableAscii(bytes)) return false;
      const text = bytes.toString('latin1');
      const colon = text.indexOf(':');
      if (colon < 0) return false;
      const password = text.slice(colon + 1);
      // `client_id:` with no secret still authenticates some APIs.
      return password.length === 0 ? colon >= 4 && !looksLikeTemplate(text) : isRealPassword(password);
    },
  },
  {
    id: 'http-bearer-token',
    description: 'HTTP Bearer token (Authorization header, curl -H, SDK configuration).',
    keywords: ['bearer '],
    pattern: new RegExp(`(?<![A-Za-z0-9])[Bb]earer[ \\t]{1,4}(${TOKEN})`),
    precheck: bearerToken,
    entropy: 3,
    specificity: Specificity.header,
    accept: acceptToken,
  },
  {
    id: 'http-authorization-header',
    description: 'Other Authorization header values (raw keys, "Token …", "Bot …", "SSWS …").',
    keywords: ['authorization'],
    pattern: new RegExp(`authorization\\\\{0,2}["']?[ \\t]{0,4}[:=][ \\t]{0,4}\\\\{0,2}["']?(?:(?:token|api-token|bot|key|apikey|sso-key|ssws|splunk|dsn)[ \\t]{1,4})?(${TOKEN})`, 'i'),
    precheck: headerSeparator(':=', 'authorization'.length),
    entropy: 3,
    specificity: Specificity.header,
    accept: acceptToken,
  },
  {
    id: 'http-api-key-header',
    description: 'API key headers: X-API-Key, api-key, x-goog-api-key, Ocp-Apim-Subscription-Key, PRIVATE-TOKEN, X-Auth-Token, X-Access-Token.',
    keywords: ['x-api-key', 'api-key', 'x-goog-api-key', 'ocp-apim-subscription-key', 'private-token', 'x-auth-token', 'x-access-token'],
    pattern: new RegExp(`${API_KEY_HEADERS}\\\\{0,2}["']?[ \\t]{0,4}:[ \\t]{0,4}\\\\{0,2}["']?(${TOKEN})`, 'i'),
    precheck: headerSeparator(':', maxMatchLength(API_KEY_HEADERS)),
    entropy: 3,
    specificity: Specificity.header,
    accept: acceptToken,
  },
  {
    id: 'curl-user-password',
    description: 'curl -u / --user user:password on a command line (continuation lines included).',
    keywords: ['curl'],
    pattern: new RegExp(`${CURL_HEAD}([^\\x00-\\x20"'\\\\:]{0,128}(?:\\\\?["'])?:(?:\\\\?["'])?[^\\x00-\\x20"'\\\\]{0,256})`),
    // Every match holds `-u` (also inside `--user`) within its head: text
    // full of `curl` and no option reads 800 characters from each.
    precheck: wordWithin('-u', maxMatchLength(CURL_HEAD)),
    specificity: Specificity.header,
    accept: acceptUserPassword,
  },
  {
    id: 'user-password-option',
    description: 'user:password given to a --user or --proxy-user option anywhere (a continuation line of a curl command, other HTTP clients).',
    keywords: ['--user', '--proxy-user'],
    pattern: /(?<![A-Za-z0-9_-])--(?:proxy-)?user(?:[ \t]{1,4}|=)\\?["']?([^\x00-\x20"'\\:]{1,128}(?:\\?["'])?:(?:\\?["'])?[^\x00-\x20"'\\]{1,256})/,
    specificity: Specificity.header,
    accept: acceptUserPassword,
  },
  {
    id: 'netrc-password',
    description: '.netrc entry: machine … login … password ….',
    keywords: ['machine'],
    pattern: /machine[ \t]{1,8}[^\x00-\x20\\]{1,253}(?:[ \t\r\n]|\\[nrt]){1,16}(?:login[ \t]{1,8}[^\x00-\x20\\]{1,128}(?:[ \t\r\n]|\\[nrt]){1,16})?password[ \t]{1,8}([^\x00-\x20\\]{1,256})/,
    specificity: Specificity.structured,
    accept: isRealPassword,
  },
  {
    id: 'http-session-cookie',
    description:
      'A session or authentication cookie in a Cookie or Set-Cookie header, or given to curl (-b, --cookie): sessionid=…, JSESSIONID=…, PHPSESSID=…, connect.sid=…, laravel_session=…, auth_token=… (not CSRF tokens).',
    keywords: ['cookie', 'curl'],
    pattern: new RegExp(
      `(?:(?<![A-Za-z0-9_])cookie\\\\{0,3}["']?[ \\t]{0,4}:[ \\t]{0,4}${COOKIE_HEAD}|(?<=--)cookie(?:[ \\t]{1,4}|=)${COOKIE_HEAD}|(?<![A-Za-z0-9_-])curl[ \\t](?:[^\\r\\n|;&\\-]|-(?!b[ \\t])){0,200}?(?<=[ \\t])-b[ \\t]{1,4}${COOKIE_HEAD})` +
        `(?:[^\\x00-\\x20=;,"'\\\\]{1,64}=[^\\x00-\\x20;,"'\\\\]{0,512};[ \\t]{0,4}){0,16}?${SESSION_NAME}=(?=([A-Za-z0-9%+/_.~:-]{16,1024}={0,2}))\\1(?![A-Za-z0-9%+/=_.~:-])`,
      'i',
    ),
    // Most hits of `cookie` are the word: only `cookie` followed by a separator (`:`, a quote, `=`, a
    // space after `--cookie`) starts a list; `curl` hits go on to look for `-b`. A list reaches a session
    // cookie past others only through a `;` (looked for once per text, however many hits ask); without one
    // the session cookie must come first, which a short sticky test tells, so `set-cookie:sid=` repeated
    // no longer reads 512 characters of a would-be cookie value at every hit.
    precheck: (text, at, memo) => {
      const u = text.charCodeAt(at + 1);
      if (u === 117 || u === 85) return true;
      const c = text.charCodeAt(at + 6);
      if (!(c === 58 || c === 34 || c === 39 || c === 92 || c === 32 || c === 9 || c === 61)) return false;
      if (SEMICOLON_WITHIN_LIST(text, at, memo)) return true;
      SESSION_COOKIE_FIRST.lastIndex = at;
      return SESSION_COOKIE_FIRST.test(text);
    },
    specificity: Specificity.header,
    accept: (value) => !looksLikeTemplate(value) && !isCodeReference(value) && /[0-9]/.test(value) && notPlaceholder(value) && shannonEntropy(value) >= 3,
  },
];
