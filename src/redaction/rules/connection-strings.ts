import { hasLongRun, hasPlaceholderWords, looksLikeTemplate } from '../filters.js';
import { anyOf, lettersThenEquals, maxMatchLength, otherSchemeUserinfo, schemeUserinfo, startsWithIgnoringCase, userinfoThenAt, wordWithin } from '../prechecks.js';
import { Specificity, type Rule } from '../rule.js';

// Words people put where a password goes in documentation and local setups.
const STAND_IN_PASSWORDS = new Set([
  'password',
  'passwd',
  'pass',
  'pwd',
  'secret',
  'changeme',
  'change_me',
  'pa55word',
  'user',
  'username',
  'token',
  'apikey',
  'api_key',
  'key',
  'xxx',
  'yyy',
  'test',
  'mypassword',
]);

/** A password that is a real value: not a template, stand-in word or mask. */
export function isRealPassword(password: string): boolean {
  if (password.length === 0) return false;
  const lower = password.toLowerCase();
  if (STAND_IN_PASSWORDS.has(lower)) return false;
  if (looksLikeTemplate(password) || hasPlaceholderWords(password)) return false;
  if (password.length >= 4 && hasLongRun(password, 4)) return false;
  return true;
}

// URL userinfo: anything but whitespace, quotes, brackets, and the characters
// that end the userinfo (`@`) or the authority (`/ ? #`).
const USER = '[^\\x00-\\x20"\'<>@/\\\\:?#`]{0,128}';
const PASSWORD = '[^\\x00-\\x20"\'<>@/\\\\?#`]{1,256}';

function urlPassword(id: string, what: string, schemes: readonly string[]): Rule {
  const scheme = `(?:${schemes.join('|')})(?:\\+[a-z0-9]{1,20})?`;
  return {
    id,
    description: `Password in a ${what} URL (scheme://user:password@host): only the password is replaced.`,
    keywords: schemes,
    pattern: new RegExp(`(?<![A-Za-z0-9+.-])${scheme}://${USER}:(${PASSWORD})@`, 'i'),
    precheck: schemeUserinfo(maxMatchLength(scheme), true),
    specificity: Specificity.structured,
    accept: isRealPassword,
  };
}

/** `user:password` (or a lone token as user) from URL userinfo. */
function acceptUserinfo(userinfo: string): boolean {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return userinfo.length >= 20 && isRealPassword(userinfo) && /[0-9]/.test(userinfo);
  const user = userinfo.slice(0, colon);
  const password = userinfo.slice(colon + 1);
  // Docs write `abc:xyz@` and `a:b@`; a real password is longer.
  return password.length >= 4 && password !== user && isRealPassword(password) && !looksLikeTemplate(user);
}

const JDBC_PASSWORD =
  /jdbc:(?:oracle:(?:thin|oci):[^\x00-\x20"'<>/@:]{1,64}\/([^\x00-\x20"'<>@]{1,128})@|[a-z0-9]{2,20}:[^\x00-\x20"'<>]{0,400}?[;?&:]password=((?:[^\x00-\x20"'<>;&\\]|\\(?!\\{0,2}["'])){1,128}))/i;

export const connectionStringRules: readonly Rule[] = [
  urlPassword('postgres-url-password', 'PostgreSQL', ['postgres', 'postgresql', 'pgsql', 'cockroachdb']),
  urlPassword('mysql-url-password', 'MySQL or MariaDB', ['mysql', 'mysqlx', 'mariadb']),
  urlPassword('mongodb-url-password', 'MongoDB', ['mongodb']),
  urlPassword('redis-url-password', 'Redis or Valkey', ['redis', 'rediss', 'valkey']),
  urlPassword('amqp-url-password', 'AMQP (RabbitMQ)', ['amqp', 'amqps']),
  urlPassword('mssql-url-password', 'SQL Server', ['mssql', 'sqlserver']),
  urlPassword('clickhouse-url-password', 'ClickHouse', ['clickhouse']),
  urlPassword('ldap-url-password', 'LDAP', ['ldap', 'ldaps']),
  urlPassword('smtp-url-password', 'SMTP', ['smtp', 'smtps']),
  urlPassword('ftp-url-password', 'FTP or SFTP', ['ftp', 'ftps', 'sftp']),
  {
    id: 'any-url-password',
    description: 'Password in a URL of any other scheme (kafka://, nats://, sftp://, mqtt://, …): scheme://user:password@host, only the password is replaced.',
    keywords: ['://'],
    // Anchored at the `://` hit; the scheme is checked behind it.
    pattern: new RegExp(`(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30})(?<!https?)://${USER}:(${PASSWORD})@(?=[A-Za-z0-9[])`),
    precheck: otherSchemeUserinfo,
    specificity: Specificity.structured - 1,
    accept: isRealPassword,
  },
  {
    id: 'url-credentials',
    description: 'Credentials in an http(s) URL (https://user:password@host, .git-credentials): user and password are replaced together.',
    keywords: ['http://', 'https://'],
    pattern: new RegExp(`https?://((?:${USER}:)?${PASSWORD})@(?=[A-Za-z0-9[])`),
    precheck: userinfoThenAt,
    specificity: Specificity.structured,
    accept: acceptUserinfo,
  },
  {
    id: 'cloudinary-url',
    description: 'Cloudinary API secret in cloudinary://<api_key>:<api_secret>@<cloud>.',
    keywords: ['cloudinary://'],
    pattern: /cloudinary:\/\/[0-9]{6,20}:([A-Za-z0-9_-]{20,40})@/,
    entropy: 3.5,
    specificity: Specificity.structured,
  },
  {
    id: 'jdbc-password',
    // A backslash before a quote escapes the quote that ends the URL (JSON
    // inside JSON), so it is not part of the value.
    description: 'Password parameter of a JDBC URL (jdbc:…;password=… or ?password=…).',
    keywords: ['jdbc:'],
    pattern: JDBC_PASSWORD,
    // A match is the Oracle form or holds `password=` (any case) within its
    // reach: text full of `jdbc:` and no `password=` had each hit read 400
    // characters lazily, trying `password=` at every `:`.
    precheck: anyOf(startsWithIgnoringCase('jdbc:oracle:'), wordWithin('password=', maxMatchLength(JDBC_PASSWORD.source), true)),
    specificity: Specificity.structured,
    accept: isRealPassword,
  },
  {
    id: 'adonet-password',
    description: 'Password of an ADO.NET / ODBC connection string (Server=…;User Id=…;Password=…;).',
    keywords: ['password', 'pwd'],
    // Anchored on the password key; the look-behind that finds the server
    // part only runs once `Password=` has matched, which keeps the many
    // other uses of the word cheap.
    pattern: /(?:Password|Pwd)[ \t]{0,4}=(?<=(?:Server|Data Source|Host|Address|Addr|User ID|UID)[ \t]{0,4}=[^\r\n]{0,300};[ \t]{0,4}(?:Password|Pwd)[ \t]{0,4}=)[ \t]{0,4}([^;"'\r\n]{1,128})/i,
    precheck: lettersThenEquals,
    specificity: Specificity.structured,
    accept: (s) => isRealPassword(s.trim()),
  },
];
