// Passwords given to widely used command-line tools in the form each tool's
// own manual documents: `mysql -p<password>`, `sshpass -p …`, `redis-cli -a …`,
// `ldapsearch -w …`, `smbclient -U user%…`, `net use … /user:x …`,
// `sqlplus user/…@db`, `zip -P …`. Such a value has no telling name in front
// of it (the generic rules need one), and a tool's short option means a
// password only for that tool (`-p` is a port to ssh and docker, `-P` to
// mysql), so each rule is anchored at the tool's name and reads on within
// one command: no line break, `|`, `;` or `&` between the name and the option.
import { isCodeReference, looksLikeTemplate } from '../filters.js';
import { wordWithin, type Precheck } from '../prechecks.js';
import { Specificity, type Rule } from '../rule.js';
import { keyLikeValue, passwordLikeValue } from './generic.js';

// A shell word of six or more characters, optionally quoted (also JSON-escaped
// quotes). Not starting with a dash: that is the next option (`-p -x`), and a
// rule would otherwise read every option of a long command as a candidate.
// The lookahead asks for what acceptance needs anyway (passwordLikeValue and
// keyLikeValue: a digit, a symbol, or capitals for a random case mix), so the
// next command's name (`redis-cli -a redis-cli …`) never becomes a candidate.
const NOT_PLAIN = '(?=[^\\x00-\\x20"\'`\\\\]{0,255}?[0-9A-Z+/=!@#$%^*~?|:])';
const WORD = `${NOT_PLAIN}[^\\x00-\\x20"'\`\\\\-][^\\x00-\\x20"'\`\\\\]{5,255}`;
const OPEN = '(?:\\\\{0,3}["\'])?';
// The rest of one command, up to where the option stands.
const SEG = '[^\\r\\n|;&]{0,200}?';
// The same, unable to pass the option itself (its first character, then the
// rest): only the first occurrence is read, so a command that repeats an
// option with no value after it (`zip -P zip -P …`) costs one read, not one
// per occurrence within reach.
const upTo = (first: string, rest: string): string => {
  const f = first === '-' ? '\\-' : first;
  return `(?:[^\\r\\n|;&${f}]|${f}(?!${rest})){0,200}?`;
};
// A command's name stands alone: not the end of another word or path part.
const START = '(?<![A-Za-z0-9_.-])';
// `<tool> … <option> <value>` within one command: the common form of the rules below.
const toolOption = (tool: string, first: string, rest: string, option: string): string => `${START}${tool}(?:\\.exe)?(?=[ \\t])${upTo(first, rest)}(?<=[ \\t])${option}[ \\t]{1,4}${OPEN}(${WORD})`;
const SNMP_TOOLS = 'snmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|inform|status|df|netstat|delta|usm|vacm)';

// A user name inside an option's value (`-U dom\\user%…`, `-u user,…`).
const USER = '[^\\x00-\\x20"\'%,:/]{1,128}';
// A Windows password: no switch (`/user:x`) or prompt (`*`).
const WIN_WORD = `${NOT_PLAIN}[^\\x00-\\x20"'\`\\\\/*][^\\x00-\\x20"'\`\\\\]{5,255}`;
// The lookahead of a whole-word end, so a value is not cut inside a longer word.
const END = '(?![^\\x00-\\x20"\'`\\\\])';

// The value is the password itself: not a variable, a file or a prompt.
function acceptToolPassword(value: string): boolean {
  if (looksLikeTemplate(value) || isCodeReference(value)) return false;
  if (/^[~$%@<]/.test(value)) return false;
  return passwordLikeValue(value) || keyLikeValue(value);
}

interface ToolRule {
  id: string;
  description: string;
  keywords: string[];
  pattern: string;
  /**
   * Words one of which every match holds within this many characters of the
   * tool's name (the option), so a name repeated without it is refused
   * before the command is read (see prechecks.ts).
   */
  within?: [words: string[], max: number];
}

const TOOLS: readonly ToolRule[] = [
  {
    id: 'mysql-password-option',
    description: 'MySQL and MariaDB clients: mysql, mysqldump, mysqladmin, mariadb-dump … -p<password> (the manual: "-p[password]", no space after -p).',
    keywords: ['mysql', 'mariadb'],
    pattern: `${START}(?:mysql(?:dump|admin|import|check|show|pump|sh|binlog|slap)?|mariadb(?:-dump|-admin|-import|-check|-show)?)(?:\\.exe)?(?=[ \\t])${upTo('-', 'p')}(?<=[ \\t])-p${OPEN}(${WORD})`,
    within: [['-p'], 260],
  },
  {
    id: 'sshpass-password',
    description: 'sshpass -p <password> (its manual: "the password is given on the command line").',
    keywords: ['sshpass'],
    within: [['-p'], 400],
    pattern: `${START}sshpass(?:[ \\t]{1,4}-[a-oq-zA-Z](?:[ \\t]{1,4}[^\\x00-\\x20-][^\\x00-\\x20]{0,100})?){0,3}[ \\t]{1,4}-p[ \\t]{0,4}${OPEN}(${WORD})`,
  },
  {
    id: 'redis-cli-password',
    description: 'redis-cli -a <password> or --pass <password> (redis-cli --help: "Password to use when connecting to the server").',
    keywords: ['redis-cli'],
    within: [['-a', '--pass'], 260],
    pattern: toolOption('redis-cli', '-', 'a|-pass', '(?:-a|--pass)'),
  },
  {
    id: 'ldap-bind-password',
    description: 'OpenLDAP clients: ldapsearch, ldapadd, ldapmodify … -w <password> (their manuals: "Use passwd as the password for simple authentication").',
    keywords: ['ldap'],
    pattern: `${START}ldap(?:search|add|modify|delete|modrdn|whoami|passwd|compare|exop|url|vc)(?:\\.exe)?(?=[ \\t])${upTo('-', 'w')}(?<=[ \\t])-w[ \\t]{0,4}${OPEN}(${WORD})`,
    within: [['-w'], 260],
  },
  {
    id: 'java-keystore-password',
    description: 'keytool and jarsigner: -storepass, -keypass, -srcstorepass, -deststorepass, -srckeypass, -destkeypass <password> (not the :env and :file forms, which name where it is).',
    keywords: ['storepass', 'keypass'],
    pattern: `(?<=(?:^|[ \\t"'])-(?:src|dest|new)?)(?:store|key)pass[ \\t]{1,4}${OPEN}(${WORD})`,
  },
  {
    id: 'samba-user-password',
    description: 'Samba clients: smbclient, rpcclient, smbcacls, smbget, smbmap, net rpc, net ads … -U [domain\\]user%<password> (their manuals: "-U|--user=[DOMAIN\\]USERNAME[%PASSWORD]").',
    keywords: ['smbclient', 'rpcclient', 'smbcacls', 'smbget', 'smbmap', 'smbtree', 'net rpc', 'net ads'],
    within: [['%'], 520],
    pattern: `${START}(?:smbclient|rpcclient|smbcacls|smbget|smbmap|smbtree|net[ \\t]{1,4}(?:rpc|ads))(?=[ \\t])${upTo('-', 'U|-user')}(?<=[ \\t])(?:-U[ \\t]{0,4}|--user[= \\t])${OPEN}(?:[^\\x00-\\x20"'%\\\\]{1,64}\\\\{1,4})?[^\\x00-\\x20"'%\\\\]{1,128}%(${WORD})`,
  },
  {
    id: 'windows-net-use-password',
    description:
      'Windows net use \\\\server\\share <password> /user:<name>, in either order (the command reference: "net use [devicename] [\\\\computername\\sharename] [password | *] [/user:[domain\\]username]").',
    keywords: ['net use'],
    within: [['/u'], 560],
    pattern:
      `${START}net[ \\t]{1,4}use(?:(?:[ \\t]{1,4}(?:[A-Za-z]:|\\*))?[ \\t]{1,4}${OPEN}\\\\{2,8}[^\\x00-\\x20"']{1,200}${OPEN}[ \\t]{1,4}${OPEN}(${WIN_WORD})${OPEN}(?=[ \\t]{1,4}/u(?:ser)?:)` +
      `|(?=[ \\t])${upTo('/', 'u')}(?<=[ \\t])/u(?:ser)?:${OPEN}[^\\x00-\\x20"']{1,128}${OPEN}[ \\t]{1,4}${OPEN}(${WIN_WORD}))${END}`,
  },
  {
    id: 'windows-net-user-password',
    description: 'Windows net user <name> <password> [/add] (the command reference: "net user [username [password | *] [options]]").',
    keywords: ['net user'],
    pattern: `${START}net[ \\t]{1,4}user[ \\t]{1,4}${OPEN}[^\\x00-\\x20"'/*]{1,64}${OPEN}[ \\t]{1,4}${OPEN}(${WIN_WORD})${END}`,
  },
  {
    id: 'remote-shell-password-option',
    description: 'FreeRDP /p:<password> (xfreerdp, wlfreerdp, sdl-freerdp) and Windows winrs -p:<password> (their references: "/p:<password>", "-p[assword]:<password>").',
    keywords: ['freerdp', 'winrs'],
    within: [['/p:', '-p'], 260],
    pattern: `(?:(?<=(?:^|[^A-Za-z0-9_.-])(?:[xw]l?|sdl-)?)freerdp3?(?:\\.exe)?(?=[ \\t])${upTo('/', 'p:')}(?<=[ \\t])/p:|(?<![A-Za-z0-9_.-])winrs(?:\\.exe)?(?=[ \\t])${upTo('-', 'p')}(?<=[ \\t])-p(?:assword)?:)${OPEN}(${WORD})`,
  },
  {
    id: 'putty-password-option',
    description: 'PuTTY tools: plink, pscp, psftp, putty … -pw <password> (the PuTTY manual: "-pw password").',
    keywords: ['plink', 'pscp', 'psftp', 'putty'],
    pattern: toolOption('(?:plink|pscp|psftp|putty)', '-', 'pw', '-pw'),
  },
  {
    id: 'oracle-connect-password',
    description: 'Oracle command-line tools: sqlplus, rman, expdp, impdp, sqlldr, dgmgrl user/<password>[@connect] (the manuals: "username[/password][@connect_identifier]").',
    keywords: ['sqlplus', 'rman', 'expdp', 'impdp', 'sqlldr', 'dgmgrl'],
    pattern: `${START}(?:sqlplus|rman|expdp|impdp|sqlldr|dgmgrl)(?:\\.exe)?[ \\t]{1,4}(?:-[A-Za-z]{1,8}[ \\t]{1,4}){0,3}(?:(?:target|auxiliary|catalog|userid)[ \\t]{0,4}=?[ \\t]{0,4})?${OPEN}[A-Za-z][A-Za-z0-9_$#.]{0,127}/(${NOT_PLAIN}[^\\x00-\\x20"'\`\\\\/@]{6,128})(?=@|${OPEN}[ \\t\\r\\n]|${OPEN}$)`,
  },
  {
    id: 'zip-password-option',
    description: 'zip and unzip -P <password> (their manuals: "-P password: use password to encrypt/decrypt").',
    keywords: ['zip'],
    within: [['-P'], 260],
    pattern: `(?<=(?:^|[^A-Za-z0-9_.-])(?:un)?)zip(?:\\.exe)?(?=[ \\t])${upTo('-', 'P')}(?<=[ \\t])-P[ \\t]{1,4}${OPEN}(${WORD})`,
  },
  {
    id: 'archive-password-option',
    description: '7-Zip (7z, 7za, 7zr) and RAR (rar, unrar, winrar) -p<password> (their manuals: "-p{Password}", "-p<pwd>").',
    keywords: ['7z', 'rar'],
    within: [['-p'], 260],
    pattern: `(?:(?<=(?:^|[^A-Za-z0-9_.-])(?:un|win)?)rar|${START}7z[arz]?)(?:\\.exe)?(?=[ \\t])${upTo('-', 'p')}(?<=[ \\t])-p${OPEN}(${WORD})`,
  },
  {
    id: 'htpasswd-batch-password',
    description: 'htpasswd -b[…] <file> <user> <password> and htpasswd -nb <user> <password> (its manual: batch mode takes the password from the command line).',
    keywords: ['htpasswd'],
    pattern: `${START}htpasswd[ \\t]{1,4}-(?:(?=[A-Za-z]{0,8}n)[A-Za-z]{0,8}b[A-Za-z]{0,8}(?:[ \\t]{1,4}-C[ \\t]{1,4}[0-9]{1,2})?|[A-Za-mo-z]{0,8}b[A-Za-mo-z]{0,8}(?:[ \\t]{1,4}-C[ \\t]{1,4}[0-9]{1,2})?[ \\t]{1,4}${OPEN}[^\\x00-\\x20"']{1,256}${OPEN})[ \\t]{1,4}${OPEN}${USER}${OPEN}[ \\t]{1,4}${OPEN}(${WORD})`,
  },
  {
    id: 'rabbitmqctl-user-password',
    description: 'rabbitmqctl [global options] add_user <user> <password> and change_password <user> <password> (the rabbitmqctl manual).',
    keywords: ['rabbitmqctl'],
    pattern: `${START}rabbitmqctl(?:\\.bat)?(?:[ \\t]{1,4}-[-A-Za-z]{1,20}(?:[ \\t]{1,4}[^\\x00-\\x20-][^\\x00-\\x20]{0,100})?){0,4}[ \\t]{1,4}(?:add_user|change_password)[ \\t]{1,4}${OPEN}${USER}${OPEN}[ \\t]{1,4}${OPEN}(${WORD})`,
  },
  {
    id: 'ipmitool-password',
    description: 'ipmitool -P <password> (its manual: "Remote server password is specified on the command line").',
    keywords: ['ipmitool'],
    within: [['-P'], 260],
    pattern: toolOption('ipmitool', '-', 'P', '-P'),
  },
  // Two rules, as a v3 command holds two passphrases (-A and -X) and a rule anchored at the tool's name finds one.
  {
    id: 'snmp-credential-option',
    description: 'Net-SNMP tools: snmpwalk, snmpget, snmpset … -A <auth passphrase>, -c <community> (their manuals).',
    keywords: ['snmp'],
    within: [['-A', '-c'], 260],
    pattern: toolOption(SNMP_TOOLS, '-', '[Ac]', '-[Ac]'),
  },
  {
    id: 'snmp-privacy-passphrase',
    description: 'Net-SNMP tools: snmpwalk, snmpget, snmpset … -X <privacy passphrase> (their manuals).',
    keywords: ['snmp'],
    within: [['-X'], 260],
    pattern: toolOption(SNMP_TOOLS, '-', 'X', '-X'),
  },
  {
    id: 'mongo-shell-password',
    description: 'MongoDB shells and tools: mongo, mongosh, mongodump, mongorestore, mongoexport, mongoimport … -p <password> (their manuals: "--password <password>, -p <password>").',
    keywords: ['mongo'],
    pattern: toolOption('mongo(?:sh|dump|restore|export|import|stat|top|files)?', '-', 'p', '-p'),
    within: [['-p'], 260],
  },
  {
    id: 'lftp-user-password',
    description: 'lftp -u <user>,<password> (its manual: "-u user[,pass]").',
    keywords: ['lftp'],
    within: [['-u'], 260],
    pattern: `${START}lftp(?=[ \\t])${upTo('-', 'u')}(?<=[ \\t])-u[ \\t]{1,4}${OPEN}${USER},(${WORD})`,
  },
  {
    id: 'openssl-enc-password',
    description: 'openssl enc -k <password> (the enc manual: "-k password: the password to derive the key from").',
    keywords: ['openssl'],
    within: [['-k'], 260],
    pattern: toolOption('openssl', '-', 'k', '-k'),
  },
  {
    id: 'stdin-password-pipe',
    description:
      'A password piped into a command that reads it from standard input: echo <password> | sudo -S, passwd --stdin, … --password-stdin, gh auth login --with-token; echo <user>:<password> | chpasswd.',
    keywords: ['echo', 'printf'],
    within: [['|'], 320],
    pattern:
      `(?:echo|printf)(?:[ \\t]{1,4}-[nes]{1,3})?(?:[ \\t]{1,4}(?:'%s(?:\\\\n)?'|"%s(?:\\\\n)?"|%s))?[ \\t]{1,4}${OPEN}(?:[a-z_][a-z0-9_.-]{0,31}:(${WORD})${OPEN}[ \\t]{0,4}\\|[ \\t]{0,4}(?:sudo[ \\t]{1,4})?chpasswd` +
      `|(${WORD})${OPEN}[ \\t]{0,4}\\|[ \\t]{0,4}(?:sudo[ \\t]{1,4}(?:-[A-Za-z]{0,4}S[A-Za-z]{0,4}|--stdin)(?![A-Za-z-])|(?:sudo[ \\t]{1,4})?passwd[ \\t]{1,4}--stdin|${SEG}[ \\t]--password-stdin|(?:sudo[ \\t]{1,4})?gh[ \\t]{1,4}auth[ \\t]{1,4}login${SEG}[ \\t]--with-token))`,
  },
];

function anyWordWithin(words: readonly string[], max: number): Precheck {
  const checks = words.map((w) => wordWithin(w, max));
  return checks.length === 1 ? checks[0]! : (text, at, memo) => checks.some((check) => check(text, at, memo));
}

export const cliToolRules: readonly Rule[] = TOOLS.map((t) => ({
  id: t.id,
  description: t.description,
  keywords: t.keywords,
  pattern: new RegExp(t.pattern),
  ...(t.within ? { precheck: anyWordWithin(t.within[0], t.within[1]) } : {}),
  specificity: Specificity.header,
  accept: acceptToolPassword,
}));
