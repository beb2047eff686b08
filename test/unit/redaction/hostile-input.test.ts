import { describe, expect, it, vi } from 'vitest';
import { RULES, redactJsonBody, type Rule } from '../../../src/redaction/index.js';
import { maxMatchLength, PrecheckMemo } from '../../../src/redaction/prechecks.js';
import { Redactor } from '../../../src/redaction/redactor.js';
import { findRepeats } from '../../../src/redaction/repeats.js';
import type { Span } from '../../../src/redaction/splice.js';
import type { Candidate } from '../../../src/redaction/candidate.js';
import { findPairHalves } from '../../../src/redaction/pairs.js';
import { keyLikeValue, nameWords } from '../../../src/redaction/rules/generic.js';
import { valueFactStats } from '../../../src/redaction/value-facts.js';
import { Scanner } from '../../../src/redaction/engine.js';
import { Budget } from '../../../src/redaction/budget.js';

// Bodies a caller can craft to make the scanner work hard (issue 29 point 4,
// docs/redaction.md "Hostile input: scan cost"). Their speed is measured by
// `make bench` (s8a, bench/redaction-adversarial.mjs); here the fixes are
// checked by what they count and what they find, never by the clock.

const body = (text: string): Buffer => Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] }));
const clock = (): number => 0;

function workPerByte(text: string): number {
  const redactor = new Redactor(RULES);
  const input = body(text);
  redactor.redactJsonBody(input, Number.POSITIVE_INFINITY, clock);
  return redactor.lastWork / input.length;
}

const rule = (id: string): Rule & { precheck: NonNullable<Rule['precheck']> } => {
  const r = RULES.find((x) => x.id === id);
  if (r?.precheck === undefined) throw new Error(`${id} has no precheck`);
  return r as Rule & { precheck: NonNullable<Rule['precheck']> };
};

/** Every `step`-th start of text, or (with keywords) every start of one of them: where the engine would ask. */
function starts(text: string, by: number | readonly string[]): number[] {
  const out: number[] = [];
  for (let at = 0; at < text.length; at += typeof by === 'number' ? by : 1) if (typeof by === 'number' || by.some((k) => text.startsWith(k, at))) out.push(at);
  return out;
}

/** Asks `precheck` at each start with one memo, each answer checked against the precheck without one; returns the starts that passed. */
function passedWithMemo(precheck: NonNullable<Rule['precheck']>, text: string, at: readonly number[], memo: PrecheckMemo): number[] {
  const passed: number[] = [];
  for (const a of at) {
    const answer = precheck(text, a, memo);
    expect(answer).toBe(precheck(text, a));
    if (answer) passed.push(a);
  }
  return passed;
}

describe('hostile input', () => {
  it('a name followed by `key key key …` does not overflow the stack', () => {
    for (const head of ['token', 'api key', 'secret key']) {
      const text = head + ' key'.repeat(200_000);
      expect(() => redactJsonBody(body(text))).not.toThrow();
      for (const id of ['generic-api-key', 'generic-password', 'generic-camel-key']) {
        expect(() => rule(id).precheck(text, 0)).not.toThrow();
      }
    }
  });

  it('the assignment precheck reads each character of a long value run once, with the same answers as without the memo', () => {
    const text = 'api_key:='.repeat(8000) + ' api_key = "a1B2c3D4e5F6g7H8" ' + 'password=-'.repeat(3000);
    for (const id of ['generic-api-key', 'generic-password']) {
      const { precheck, keywords } = rule(id);
      const memo = new PrecheckMemo();
      let calls = 0;
      for (let at = 0; at < text.length; at++) {
        if (!keywords.some((k) => text.startsWith(k, at))) continue;
        calls++;
        expect(precheck(text, at, memo)).toBe(precheck(text, at));
      }
      expect(calls).toBeGreaterThan(2_000);
      // Without the memo each hit would read up to 257 characters of the run.
      expect(memo.reads).toBeLessThan(2 * text.length);
    }
  });

  it('bounds the length of a match from the regex source', () => {
    expect(maxMatchLength('(?:fm1[ar]|fm2|fo1)_[A-Za-z0-9+/=_-]{40,4096}')).toBe(4 + 1 + 4096);
    expect(maxMatchLength('(?<![A-Z])(ab|c\\.d{2})e?(?=x)')).toBe(5);
    expect(maxMatchLength('a\\u0041[^\\]]{3}')).toBe(5);
    expect(maxMatchLength('a+')).toBe(Infinity);
    expect(maxMatchLength('a{2,}')).toBe(Infinity);
    expect(maxMatchLength('(a)\\1')).toBe(Infinity);
  });

  it('a prefixed token is not tried where the run of token characters is longer than any match', () => {
    // `fo1_=fo1_=…` is one run of [A-Za-z0-9_+/=-]: no Fly.io token can end
    // inside it, so no hit but those within 4,101 characters of its end can match.
    const text = 'fo1_='.repeat(20_000);
    const { precheck } = rule('flyio-token');
    const memo = new PrecheckMemo();
    const passed = passedWithMemo(precheck, text, starts(text, 5), memo);
    expect(passed.length).toBeGreaterThan(0);
    expect(passed[0]).toBeGreaterThanOrEqual(text.length - 4101);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(workPerByte(text)).toBeLessThan(40);
    // What the body holds is still removed (the last token, then its copies).
    expect(redactJsonBody(body(text)).body.toString()).not.toContain('fo1_=');
  });

  it('a contextual assignment is not tried where the run of value characters is longer than any match', () => {
    const text = 'awssessiontoken='.repeat(10_000);
    const { precheck } = rule('aws-session-token');
    const memo = new PrecheckMemo();
    const passed: number[] = [];
    for (let at = 0; at < text.length; at += 16) if (precheck(text, at, memo)) passed.push(at);
    expect(passed[0]).toBeGreaterThanOrEqual(text.length - 4400);
    expect(memo.reads).toBeLessThan(2 * text.length);
  });

  it('a rule does not try a keyword hit inside its own last match', () => {
    // Every `-password=` is a keyword hit whose match (the flag and 256
    // characters of value) covers the next 25 hits.
    expect(workPerByte('-password='.repeat(25_000))).toBeLessThan(20);
  });

  it('a found value repeated over itself is searched in linear time', () => {
    // One found value that is most of a periodic text: each self-overlapping
    // copy used to be compared in full, quadratic in the value's length.
    const value = Buffer.from('-password='.repeat(20_000));
    const input = Buffer.concat([value, Buffer.from(' '), value]);
    const out: Span[] = [];
    const work = findRepeats(input, [{ spellings: [value], rule: 0 }], false, out);
    expect(out.map((s) => s.start)).toEqual([0, value.length + 1]);
    expect(work).toBeLessThan(10 * input.length);
  });

  it('non-overlapping matches still redact every copy of a repeated assignment', () => {
    // Each value is `x9Kq2api_key=` between two quotes.
    const text = `${'api_key="x9Kq2'.repeat(2000)}api_key="`;
    const out = redactJsonBody(body(text)).body.toString();
    expect(out).not.toContain('x9Kq2');
  });
});

// Bodies dense with findings the rules accept (round two of the hostile
// input work, docs/redaction.md "Hostile input: scan cost"): the cost per
// finding, checked by what is read and computed, never by the clock.
describe('hostile input: dense accepted findings', () => {
  it('looks for the other half of a pair before a quoted finding only where a quote ends the separators before it', () => {
    const out: Candidate[] = [];
    // `apikey='v` after a name: the character before the opening quote is `=`.
    const text = `${'apikey='.repeat(100)}'x9Kq2a1B2c3D4e5F6'`;
    const start = text.length - 18;
    const read = findPairHalves(text, start, text.length - 1, 0, 0, out);
    expect(out).toEqual([]);
    // The search over the 300 characters before it is not made.
    expect(read).toBeLessThan(20);
  });

  it('finds the same other halves as the regex over the look-back alone', () => {
    // Pieces of quoted pairs and of what may stand between them.
    const pieces = ['"', "'", '\\', ' ', '\t', ',', ', ', 'a1B2c3D4e5F6g7H8', 'Zk3Qp9LmX2aB/+=_', 'x', '=', 'key', '\\"', '"a1B2c3D4e5F6g7H8", ', "'Zk3Qp9LmX2aB/+=_' ,\\"];
    let seed = 29;
    const rand = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const BEFORE = /(["'])([A-Za-z0-9+/=_.-]{16,256})\\{0,3}\1\\{0,3}[ \t]{0,4},?[ \t]{0,4}\\{0,3}$/d;
    let withHalf = 0;
    for (let k = 0; k < 4000; k++) {
      let head = '';
      for (let j = rand(12); j > 0; j--) head += pieces[rand(pieces.length)];
      const quote = rand(2) === 0 ? '"' : "'";
      const text = `${head}${quote}Q9w8E7r6T5y4U3i2${quote}`;
      const start = head.length + 1;
      const out: Candidate[] = [];
      findPairHalves(text, start, start + 16, 0, 0, out);
      const m = BEFORE.exec(text.slice(Math.max(0, start - 301), start - 1));
      const expected = m !== null && keyLikeValue(m[2]!) ? [start - 1 - (text.slice(Math.max(0, start - 301), start - 1).length - m.indices![2]![0])] : [];
      expect(out.filter((c) => c.start < start).map((c) => c.start)).toEqual(expected);
      if (expected.length > 0) withHalf++;
    }
    expect(withHalf).toBeGreaterThan(200);
  });

  it('splits names into words as the regex pipeline did', () => {
    const reference = (name: string): string[] =>
      name
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 0);
    const alphabet = 'aZ09_.-kEyTOKen';
    let seed = 7;
    const rand = (n: number): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (const name of ['dbPassword_hash2', 'API_KEY', 'myOktaToken', 'x9Kq2apikey', 'a1B', 'HTTPServer', '', '-', 'key.2FA']) {
      expect(nameWords(name)).toEqual(reference(name));
    }
    for (let k = 0; k < 5000; k++) {
      let name = '';
      for (let j = rand(20); j > 0; j--) name += alphabet[rand(alphabet.length)];
      expect(nameWords(name)).toEqual(reference(name));
    }
  });

  it('name-value-pair is not tried where no `value` follows near enough, and the text is searched for it once', () => {
    const text = "apikey='x9Kq2".repeat(4000) + 'name: X_TOKEN\nvalue: a1B2c3D4e5F6';
    const { precheck, keywords } = rule('name-value-pair');
    const memo = new PrecheckMemo();
    const passed = passedWithMemo(precheck, text, starts(text, keywords), memo);
    // Only hits within the pattern's reach of the one `value` pass.
    expect(passed.length).toBeGreaterThan(0);
    expect(passed[0]).toBeGreaterThan(text.length - 400);
    expect(memo.reads).toBeLessThan(2 * text.length);
  });

  it('a keyword repeated into one run of name characters is read once, not once per hit', () => {
    // `pwdpwd…`, `app_keyapp_key…`: every few characters a keyword whose
    // assignment precheck read 128 name characters and let the regex read
    // 40 more; `passwordpassword…` for the ADO.NET rule likewise.
    for (const unit of ['pwd', 'app_key', 'password', 'secret_access_key']) {
      const text = unit.repeat(Math.ceil(60_000 / unit.length));
      for (const id of ['generic-api-key', 'generic-password']) {
        const { precheck, keywords } = rule(id);
        const memo = new PrecheckMemo();
        for (let at = 0; at < text.length; at++) {
          if (!keywords.some((k) => text.startsWith(k, at))) continue;
          // A name run longer than any match's name: never a match.
          expect(precheck(text, at, memo)).toBe(false);
        }
        expect(memo.reads).toBeLessThan(2 * text.length);
      }
      expect(rule('adonet-password').precheck(text, text.indexOf('p'))).toBe(false);
    }
  });

  it('a name with a space goes on after one space only, so `sdk keysdk key…` is not read 128 characters from every hit', () => {
    const text = 'sdk key'.repeat(10_000);
    const { precheck } = rule('generic-api-key');
    let passed = 0;
    for (let at = 0; at < text.length; at += 7) if (precheck(text, at)) passed++;
    expect(passed).toBe(0);
    expect(workPerByte(text)).toBeLessThan(8);
    // One space is still read: `api key = "…"` and `secret key: …`.
    expect(redactJsonBody(body('the api key = "x9Kq2a1B2c3D4e5F6g7"')).findings.length).toBe(1);
  });

  it('curl-user-password is not tried where no `-u` follows within its reach', () => {
    const text = 'curl '.repeat(20_000) + 'curl -u user:a1B2c3D4e5 https://x';
    const { precheck } = rule('curl-user-password');
    const memo = new PrecheckMemo();
    const passed: number[] = [];
    for (let at = 0; at < text.length; at += 5) if (precheck(text, at, memo)) passed.push(at);
    expect(passed[0]).toBeGreaterThan(text.length - 2500);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(redactJsonBody(body(text)).body.toString()).not.toContain('a1B2c3D4e5');
  });

  it('an npm _authToken is not tried where the run of value characters is longer than any match', () => {
    const text = '_authToken='.repeat(10_000);
    const { precheck } = rule('npmrc-auth-token');
    const memo = new PrecheckMemo();
    const passed = passedWithMemo(precheck, text, starts(text, 11), memo);
    expect(passed[0]).toBeGreaterThanOrEqual(text.length - 532);
    expect(memo.reads).toBeLessThan(2 * text.length);
  });

  it('judges a value once however many rules and copies ask, within a scan', () => {
    // One accepted finding every 13 bytes, all of the same value, which
    // generic-api-key, the pair search and other rules each judge.
    const before = valueFactStats.computed;
    const result = redactJsonBody(body("apikey='x9Kq2".repeat(5000)));
    expect(result.findings.length).toBeGreaterThan(4000);
    expect(valueFactStats.computed - before).toBeLessThan(50);
  });

  it('forgets the values it judged when a scan ends', () => {
    redactJsonBody(body("apikey='x9Kq2".repeat(100)));
    const before = valueFactStats.computed;
    expect(keyLikeValue('x9Kq2apikey')).toBe(true);
    const after = valueFactStats.computed;
    expect(after).toBeGreaterThan(before);
    expect(keyLikeValue('x9Kq2apikey')).toBe(true);
    expect(valueFactStats.computed).toBe(after);
  });
});

describe('hostile input: keyword runs that no rule matches', () => {
  /** Positions where the rule's pattern matches but its precheck said no, over every position of `text`. */
  function refusedMatches(id: string, text: string): number[] {
    const r = rule(id);
    const re = new RegExp(r.pattern.source, `${r.pattern.flags.replace(/[gyd]/g, '')}y`);
    const bad: number[] = [];
    for (let at = 0; at < text.length; at++) {
      re.lastIndex = at;
      if (re.test(text) && !r.precheck(text, at)) bad.push(at);
    }
    return bad;
  }

  /**
   * Deterministic texts (a fixed-seed generator): one option of each slot in
   * turn, and now and then a piece of `noise` instead of or beside it.
   */
  function generated(slots: readonly (readonly string[])[], noise: readonly string[], count: number, seed: number): string[] {
    let s = seed;
    const next = (n: number): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n;
    return Array.from({ length: count }, () =>
      slots
        .map((options) => {
          const roll = next(10);
          const pick = options[next(options.length)]!;
          return roll === 0 ? noise[next(noise.length)]! : roll === 1 ? pick + noise[next(noise.length)]! : pick;
        })
        .join(''),
    );
  }

  it('jdbc-password is not tried where no `password=`, in any case, follows within its reach, and the text is searched once', () => {
    const text = 'jdbc:'.repeat(20_000) + 'jdbc:mysql://db:3306/app?user=app&PassWord=a1B2c3D4e5';
    const { precheck, keywords } = rule('jdbc-password');
    const memo = new PrecheckMemo();
    const passed = passedWithMemo(precheck, text, starts(text, keywords), memo);
    // Only hits within the pattern's reach (564 characters) of the one `PassWord=` pass.
    expect(passed.length).toBeGreaterThan(0);
    expect(passed[0]).toBeGreaterThan(text.length - 600);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(redactJsonBody(body(text)).body.toString()).not.toContain('a1B2c3D4e5');
  });

  it('http-session-cookie is not tried at a cookie header with neither a `;` within its list nor the session cookie first', () => {
    const text = 'set-cookie:sid='.repeat(16_000) + '\ncookie: theme=dark; sessionid=Zq9Wm7Lp5Kr3Tx8Vb2Nc6Hd';
    const { precheck, keywords } = rule('http-session-cookie');
    const memo = new PrecheckMemo();
    const passed = passedWithMemo(precheck, text, starts(text, keywords), memo);
    // Only the headers within a list's reach (9,335 characters) of the one `;` are tried: each of the others read up
    // to 512 characters of a would-be value.
    expect(passed.at(-1)).toBe(text.lastIndexOf('cookie: theme'));
    expect(passed[0]).toBeGreaterThan(text.lastIndexOf(';') - 9_400);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(redactJsonBody(body(text)).body.toString()).not.toContain('Zq9Wm7Lp5Kr3Tx8Vb2Nc6Hd');
  });

  it("http-session-cookie's precheck never refuses a match, on generated cookie headers", () => {
    const texts = generated(
      [
        ['', 'x ', '"', '-H "', '--'],
        ['Cookie', 'cookie', 'Set-Cookie', 'set-cookie', 'COOKIE', 'curl -b', 'curl -s -b'],
        [':', ': ', ' ', '=', '\\"', '"', ''],
        ['', 'theme=dark; ', 'a=b;', 'lang=en;  ', 'csrftoken=Zq9Wm7Lp5Kr3Tx8V; '],
        ['sid', 'sessionid', 'JSESSIONID', 'connect.sid', 'auth_token', 'xsrf_sess', 'name'],
        ['=', '=x;', ''],
        ['Zq9Wm7Lp5Kr3Tx8Vb2Nc6Hd', 's%3AQ9w8E7r6T5y4U3i2', 'short1', 'a1B2c3D4e5F6g7H8=='],
        ['', ';', ' ', '"', '; Path=/'],
      ],
      ['cookie:', 'sid=', ';', '=', ' ', '"', 'x', 'Zq9Wm7Lp5Kr3Tx8Vb2Nc'],
      4000,
      31,
    );
    let matched = 0;
    for (const text of texts) {
      expect(refusedMatches('http-session-cookie', text), text).toEqual([]);
      if (new RegExp(rule('http-session-cookie').pattern.source, 'i').test(text)) matched++;
    }
    // Not vacuous: a hundred or so of the texts hold a match.
    expect(matched).toBeGreaterThan(80);
  });

  it("jdbc-password's precheck never refuses a match, on generated connection strings", () => {
    const texts = generated(
      [
        ['', 'url: ', '"', 'x'],
        ['jdbc:', 'JDBC:', 'jdbc:jdbc:'],
        ['mysql:', 'sqlserver:', 'oracle:thin:', 'Oracle:OCI:', 'postgresql:', 'oracle:'],
        ['//db:3306/app', 'scott/', '@host', '//h;databaseName=x', ''],
        ['?', ';', '&', ':', '/', '@'],
        ['user=u&', '', 'a=b;'],
        ['password=', 'PASSWORD=', 'PassWord=', 'passwor=', 'password'],
        ['a1B2c3D4', 's3cr3t', 'tiger@', ''],
        ['', '@db', ';', '"', ' '],
      ],
      ['jdbc:', 'password=', ':', ';', '"', ' ', '\\', '/', '@', 'x'],
      4000,
      29,
    );
    let matched = 0;
    for (const text of texts) {
      expect(refusedMatches('jdbc-password', text), text).toEqual([]);
      if (new RegExp(rule('jdbc-password').pattern.source, 'i').test(text)) matched++;
    }
    // Not vacuous: many of the texts hold a match, of both forms.
    expect(matched).toBeGreaterThan(200);
    expect(texts.some((t) => /jdbc:oracle:(?:thin|oci):[^/@:\s]+\/[^@\s]+@/i.test(t))).toBe(true);
  });

  it('a URL-password rule is not tried where a scheme name is glued to what is before it or runs longer than its schemes', () => {
    // `sftpsftp…`: `sftp`, `ftp` and `ftps` hit every four characters, and
    // each read 128 scheme characters before the regex refused it.
    const text = 'sftp'.repeat(20_000);
    const { precheck } = rule('ftp-url-password');
    let passed = 0;
    for (let at = 0; at < text.length; at++) if (precheck(text, at)) passed++;
    expect(passed).toBe(0);
    expect(precheck('x ftp+ssh://u:a1B2c3D4e5@h', 2)).toBe(true);
    expect(redactJsonBody(body('get sftp://deploy:a1B2c3D4e5x@files.example.com/x')).body.toString()).not.toContain('a1B2c3D4e5x');
  });

  it("the URL-password rules' prechecks never refuse a match, on generated URLs", () => {
    const urls = generated(
      [
        ['', '', '', ' ', '"', 'x', '.', '+', '-', '9'],
        ['ftp', 'sftp', 'ftps', 'FTP', 'SFTP', 'redis', 'postgres', 'mongodb', 'amqps', 'ldap', 'smtp', 'mysqlx', 'sftpsftp'],
        ['', '', '+srv', '+ssh', '+a1b2c3d4e5f6g7h8i9j0', '+a1b2c3d4e5f6g7h8i9j0k'],
        ['://', ':/', '://'],
        ['deploy', '', 'u'],
        [':', ''],
        ['a1B2c3D4e5', 'p@ss', 'x'],
        ['@', '@', '/'],
        ['files.example.com', 'h', ''],
      ],
      ['ftp', '://', ':', '@', '+', '/', ' ', '"', 'x', '#'],
      3000,
      4,
    );
    const ids = RULES.filter((r) => r.id.endsWith('-url-password') && r.id !== 'any-url-password').map((r) => r.id);
    expect(ids.length).toBeGreaterThan(8);
    let matched = 0;
    for (const text of urls) {
      for (const id of ids) {
        expect(refusedMatches(id, text), `${id} in ${text}`).toEqual([]);
        if (new RegExp(rule(id).pattern.source, 'i').test(text)) matched++;
      }
    }
    expect(matched).toBeGreaterThan(100);
  });

  it("a prefixed token's look-behind is read before its keyword's exact spelling", () => {
    // In a run of `A` the 21-A keyword of two X (Twitter) rules hits at
    // every character; comparing its exact spelling was 42 characters per
    // character of text (the engine counts them as work).
    expect(workPerByte('A'.repeat(200_000))).toBeLessThan(3);
    expect(workPerByte('AKIA'.repeat(50_000))).toBeLessThan(3);
    const bearer = 'A'.repeat(22) + 'Zq9Wm7Lp5Kr3Tx8Vb2Nc6Hd4Jf1Gs0Qa9Wm7Lp5Kr3Tx8Vb2%3DNc6Hd4Jf1Gs0Qa';
    expect(redactJsonBody(body(`token ${bearer} here`)).body.toString()).not.toContain(bearer);
  });
});

describe('hostile input: the cost of each finding', () => {
  it("reads the secret's offset from the match, and makes the match again with indices only where the secret's text occurs twice in it", () => {
    // The engine's regexes carry no `d` flag (indices cost as much as the
    // attempt); a secret is placed by where its text occurs in the match.
    const twice: Rule = { id: 'twice', description: '', keywords: ['ab'], pattern: /(?:ab){1,3}:(ab)/, specificity: 10, accept: () => true };
    const once: Rule = { id: 'once', description: '', keywords: ['k='], pattern: /k=(x{3,5})y/, specificity: 10, accept: () => true };
    const scanner = new Scanner([twice, once]);
    const out: Candidate[] = [];
    scanner.scan('abab:ab k=xxxxy', new Budget(Number.POSITIVE_INFINITY, clock), out);
    expect(out.map((c) => [c.start, c.end, c.rule])).toEqual([
      [5, 7, 0],
      [10, 14, 1],
    ]);
  });

  it('a rule whose secret text occurred twice in a match asks for indices from then on in that text, so matches are not made twice', () => {
    const twice: Rule = { id: 'twice', description: '', keywords: ['ab'], pattern: /(?:ab){1,3}:(ab)/, specificity: 10, accept: () => true };
    const scanner = new Scanner([twice]);
    const out: Candidate[] = [];
    const exec = vi.spyOn(RegExp.prototype, 'exec');
    try {
      scanner.scan('abab:ab '.repeat(1000), new Budget(Number.POSITIVE_INFINITY, clock), out);
      expect(out.length).toBe(1000);
      expect(out[999]).toEqual({ start: 7997, end: 7999, rule: 0 });
      // One attempt per hit that is not inside the last match, and one more match for the first.
      expect(exec.mock.calls.length).toBeLessThan(1100);
    } finally {
      exec.mockRestore();
    }
  });

  it('a found value of plain ASCII is neither decoded nor spelled again', () => {
    // Distinct random values, one finding every 25 bytes: each used to be
    // decoded and given three more spellings (JSON.parse and JSON.stringify
    // twice each), none of which differs from its raw bytes.
    let seed = 7;
    const next = (): string => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % 56]!;
    const values = Array.from({ length: 2000 }, () => Array.from({ length: 20 }, next).join(''));
    const input = body(values.map((v) => `key:${v} `).join(''));
    // The shared redactor is built (its placeholders JSON-escaped) before counting.
    redactJsonBody(body('hello'));
    const parse = vi.spyOn(JSON, 'parse');
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const result = redactJsonBody(input);
      expect(result.findings.length).toBeGreaterThan(1500);
      expect(parse.mock.calls.length + stringify.mock.calls.length).toBeLessThan(100);
    } finally {
      parse.mockRestore();
      stringify.mockRestore();
    }
    // A value with a character JSON escapes still has its other spellings.
    // The copy in the second string is spelled with `\/`.
    const text = String.raw`{"messages":[{"content":"api_key=\"Zq9Wm7Lp5Kr3/Tx8Vb2Nc6\""},{"content":"copy Zq9Wm7Lp5Kr3\/Tx8Vb2Nc6 end"}]}`;
    expect(redactJsonBody(Buffer.from(text)).body.toString()).not.toContain('Tx8Vb2Nc6');
  });

  it('the assignment precheck refuses a quoted run that does not end at its closing quote', () => {
    const { precheck } = rule('generic-api-key');
    expect(precheck('secretaccesskey: "secretaccesskey: "', 0)).toBe(false);
    expect(precheck('token: "must be rotated before it expires"', 0)).toBe(false);
    expect(precheck(`token: "${'a1'.repeat(129)}"`, 0)).toBe(false);
    expect(precheck('token: "a1B2c3D4e5F6g7"', 0)).toBe(true);
    expect(precheck('token: \\"a1B2c3D4e5F6g7\\"', 0)).toBe(true);
    let refused = 0;
    const text = 'secretaccesskey: "'.repeat(5000);
    for (let at = 0; at < text.length; at += 18) if (!precheck(text, at)) refused++;
    expect(refused).toBe(5000);
  });

  it('the assignment prechecks never refuse a match, on generated quoted values of every length around the bounds', () => {
    const ids = ['generic-api-key', 'generic-password', 'generic-camel-key'];
    const lengths = [5, 6, 9, 10, 15, 16, 17, 40, 255, 256, 257];
    const texts: string[] = [];
    for (const name of ['api_key', 'password', 'myKey', 'db_pass']) {
      for (const op of ['=', ': ', ' = ', ' => ', ':=', '": ']) {
        for (const open of ['"', "'", '`', '\\"', '\\\\\\"', '"\\"', '\'"']) {
          for (const n of lengths) {
            const value = 'a1B2c3D4e5'.repeat(26).slice(0, n);
            for (const close of ['"', "'", '`', '\\"', ' ', '', '\\\\"', ';', ' "']) texts.push(`${name}${op}${open}${value}${close}x`);
          }
        }
      }
    }
    let matched = 0;
    for (const id of ids) {
      const r = rule(id);
      const re = new RegExp(r.pattern.source, `${r.pattern.flags.replace(/[gyd]/g, '')}y`);
      for (const text of texts) {
        for (let at = 0; at < 12; at++) {
          re.lastIndex = at;
          if (!re.test(text)) continue;
          matched++;
          expect(r.precheck(text, at), `${id} at ${at} in ${text.slice(0, 40)}…`).toBe(true);
        }
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });
});

describe('hostile input: one value judged by several rules', () => {
  it("credential-context's tests on a value repeated through the body are run once, not at every copy", () => {
    // `subscription key=…` repeated: credential-context, log-key-value and
    // generic-api-key accept each copy; the value's own tests (UUID,
    // version, code, key-like) are remembered as generic.ts's are.
    const input = body('subscription key=a1B2c3D4'.repeat(4000));
    redactJsonBody(body('hello'));
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      expect(redactJsonBody(input).findings.length).toBeGreaterThan(3000);
      // Per copy: the tests on the name around it, a few per rule.
      expect(test.mock.calls.length / 4000).toBeLessThan(6);
    } finally {
      test.mockRestore();
    }
  });
});

describe('hostile input: header and camelCase names run together', () => {
  it('a header rule is not tried where the run of header-name characters is longer than its names, and the run is read once', () => {
    // `x-api-keyx-api-key…`: two header keywords every nine characters, each
    // of which read 128 name characters before the regex refused it.
    const text = 'x-api-key'.repeat(8000) + 'x-api-key: a1B2c3D4e5F6g7H8i9J0';
    const { precheck, keywords } = rule('http-api-key-header');
    const memo = new PrecheckMemo();
    const passed = passedWithMemo(precheck, text, starts(text, keywords), memo);
    expect(passed.length).toBeGreaterThan(0);
    // Only hits within the longest name (25 characters) of the one `:` pass.
    expect(passed[0]).toBeGreaterThanOrEqual(text.length - 31 - 25);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(redactJsonBody(body(text)).body.toString()).not.toContain('a1B2c3D4e5F6g7H8i9J0');
  });

  it('generic-camel-key is not tried where the name run is longer than `Key` and one capitalised word', () => {
    const text = 'Key'.repeat(20_000);
    const { precheck } = rule('generic-camel-key');
    const memo = new PrecheckMemo();
    let passed = 0;
    for (let at = 3; at < text.length; at += 3) if (precheck(text, at, memo)) passed++;
    expect(passed).toBe(0);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(precheck('apiKeyValue = "a1B2c3D4e5F6g7H8i9"', 3)).toBe(true);
  });
});

describe('hostile input: names and values made of keywords', () => {
  it("credential-context's precheck refuses a value that a key, token or secret cuts short of 16 characters", () => {
    const { precheck } = rule('credential-context');
    const text = 'secret_access_key='.repeat(4000);
    let passed = 0;
    for (let at = 0; at < text.length; at++) if (/^(?:key|token|secret)/i.test(text.slice(at, at + 6)) && precheck(text, at)) passed++;
    expect(passed).toBe(0);
    expect(precheck('apiKey = "a1B2c3D4e5F6g7H8i9"', 3)).toBe(true);
    expect(precheck('apiKey = "a1B2c3D4e5F6gKeY7H8i9"', 3)).toBe(false);
    // Never refuses a match, on values with a keyword at each place in the first 16 characters.
    const re = new RegExp(rule('credential-context').pattern.source, 'y');
    let matched = 0;
    for (const kw of ['key', 'KEY', 'Token', 'secret', 'sEcReT', 'ke', 'toke', 'secre']) {
      for (let k = 0; k <= 20; k++) {
        for (const head of ['apiKey = "', 'TOKEN: ', 'my_secret ']) {
          const t = `${head}${'a1B2c3D4e5F6g7H8i9J0k1'.slice(0, k)}${kw}Zq9Wm7Lp5Kr3Tx8Vb2"`;
          const at = t.search(/key|token|secret/i);
          re.lastIndex = at;
          if (!re.test(t)) continue;
          matched++;
          expect(precheck(t, at), t).toBe(true);
        }
      }
    }
    expect(matched).toBeGreaterThan(50);
  });

  it('a contextual assignment is not tried where the run of name characters is longer than its name', () => {
    // `aws.secretaws.secret…`: `.` ends every run of value characters, so
    // the value-run bound let each hit through to the regex.
    const text = 'aws.secret'.repeat(6000);
    const { precheck } = rule('aws-secret-access-key');
    const memo = new PrecheckMemo();
    let passed = 0;
    // Only hits whose run reaches the text's end within the bound pass (the regex then finds no operator).
    for (let at = 0; at < text.length - 100; at += 10) if (precheck(text, at, memo)) passed++;
    expect(passed).toBe(0);
    expect(memo.reads).toBeLessThan(2 * text.length);
    expect(precheck('aws.secret.access.key = "a1B2c3D4e5F6g7H8i9J0a1B2c3D4e5F6g7H8i9J0"', 0)).toBe(true);
    // The longest name a match can have: 17 + 32 characters and the `.` of `.=`.
    const longest = `secret_access_key${'x'.repeat(32)}.= "a1B2c3D4e5F6g7H8i9J0a1B2c3D4e5F6g7H8i9J0"`;
    expect(new RegExp(rule('aws-secret-access-key').pattern.source, 'iy').test(longest)).toBe(true);
    expect(precheck(longest, 0)).toBe(true);
  });
});
