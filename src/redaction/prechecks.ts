// Cheap necessary conditions for an anchored match. A keyword hit costs one
// regex attempt at the hit; most hits are the word in prose or code
// (`token` in a sentence, `Bearer ${token}`, `https://host/path`) and fail.
// Entering the regex engine costs far more than reading a few characters, so
// a rule may first ask a precheck that reads the characters every match must
// have. A precheck answers false only where its rule's pattern cannot match
// at `at` (the match start); it never decides that something is a secret.
// test/unit/redaction/prechecks.test.ts checks that against the patterns.

import { classEnd, quantifierAt } from './pattern-lint.js';

/**
 * `(at) => whether the rule's pattern could match starting at at`. `memo`
 * is what earlier prechecks learnt about the same text (the engine passes
 * one per text scanned); without it a precheck reads everything itself.
 */
export type Precheck = (text: string, at: number, memo?: PrecheckMemo) => boolean;

/**
 * Runs of bare value characters already read in one text. A text that is
 * one long run with a keyword every few characters (`api_key:=api_key:=…`)
 * would otherwise have each hit read MAX_VALUE characters again; with the
 * memo each character of a run is read once, however many hits fall in it.
 */
export class PrecheckMemo {
  /** Runs of generic.ts's bare value characters. */
  readonly value = new Run();
  /** Runs of the characters a prefixed token may not be followed by. */
  readonly token = new Run();
  /** Runs of log-key-value's value characters. */
  readonly log = new Run();
  /** Runs of name characters `[A-Za-z0-9_.-]` (assignmentFollows). */
  readonly name = new Run();
  /** Runs of `[A-Za-z0-9._~+/=-]` (urlTokenRunWithin). */
  readonly urlToken = new Run();
  /** Runs of header name characters `[A-Za-z-]` (headerSeparator). */
  readonly header = new Run();
  /** Where each word asked for by `wordWithin` occurs. */
  readonly next = new Map<string, NextOccurrence>();
  /** Characters the runs read since the memo was made (the engine adds them to its work). */
  reads = 0;

  reset(): void {
    this.value.reset();
    this.token.reset();
    this.log.reset();
    this.name.reset();
    this.urlToken.reset();
    this.header.reset();
    for (const n of this.next.values()) n.reset();
  }
}

/** What a `wordWithin` search last learnt: [from, to) was read, and the word first occurs there at `at` (-1: not at all). */
class NextOccurrence {
  from = -1;
  to = -1;
  at = -1;

  reset(): void {
    this.from = -1;
    this.to = -1;
    this.at = -1;
  }
}

/** The first start of `word` in [from, to - word.length], or -1 (a native search of a slice, which V8 does not copy). */
function findWord(text: string, word: string, from: number, to: number): number {
  const k = text.slice(from, to).indexOf(word);
  return k < 0 ? -1 : from + k;
}

/** As `findWord` for an ASCII word in any case: `re` is the word as a global, case-insensitive regex. */
function findWordIgnoringCase(text: string, re: RegExp, length: number, from: number, to: number): number {
  re.lastIndex = 0;
  return re.test(text.slice(from, to)) ? from + re.lastIndex - length : -1;
}

/**
 * For a pattern whose matches from `at` hold `word` (exactly as written, or
 * in any case with `ignoreCase`, for a case-insensitive pattern) and are at
 * most `max` characters long: whether the word occurs in [at, at + max).
 * With a memo each character is read about once, however many hits ask.
 */
export function wordWithin(word: string, max: number, ignoreCase = false): Precheck {
  if (ignoreCase && !/^[\x20-\x7e]+$/.test(word)) throw new Error(`wordWithin: ignoreCase needs a printable ASCII word: ${JSON.stringify(word)}`);
  const re = ignoreCase ? new RegExp(word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'gi') : null;
  const find = re === null ? findWord : (text: string, _word: string, from: number, to: number) => findWordIgnoringCase(text, re, word.length, from, to);
  // Words asked for in any case have their own memo entry.
  const key = re === null ? word : `i:${word.toLowerCase()}`;
  return (text, at, memo) => {
    if (!Number.isFinite(max)) return true;
    const to = Math.min(text.length, at + max);
    if (memo === undefined) return find(text, word, at, to) >= 0;
    let n = memo.next.get(key);
    if (n === undefined) memo.next.set(key, (n = new NextOccurrence()));
    if (n.from >= 0 && n.from <= at && at <= n.at) return n.at + word.length <= to;
    if (n.from >= 0 && n.at < 0 && n.from <= at && to <= n.to) return false;
    if (n.from >= 0 && n.at < 0 && n.from <= at && at <= n.to - word.length + 1) {
      // Nothing in [from, to) of the last search: read on from where it
      // stopped (less the word's length, for an occurrence across that end),
      // and a reach further, so that the hits after this one are answered
      // without a search each (`jdbc:jdbc:…` asks for `password=` every 5
      // characters, and each resumed search re-read 8).
      const resume = n.to - word.length + 1;
      const ahead = Math.min(text.length, to + max);
      n.at = find(text, word, resume, ahead);
      memo.reads += (n.at < 0 ? ahead : n.at + word.length) - resume;
      n.to = ahead;
      return n.at >= 0 && n.at + word.length <= to;
    }
    n.from = at;
    n.at = find(text, word, at, to);
    n.to = to;
    memo.reads += (n.at < 0 ? to : n.at + word.length) - at;
    return n.at >= 0;
  };
}

/** Whether `prefix` (ASCII, in any case) starts at `at`: a pattern branch that begins with it may match there. */
export function startsWithIgnoringCase(prefix: string): Precheck {
  const lower = prefix.toLowerCase();
  return (text, at) => {
    if (at + lower.length > text.length) return false;
    for (let i = 0; i < lower.length; i++) {
      const c = text.charCodeAt(at + i);
      if ((c >= 65 && c <= 90 ? c | 32 : c) !== lower.charCodeAt(i)) return false;
    }
    return true;
  };
}

/** Whether every one of the prechecks says yes (each a necessary condition of the same pattern). */
export function allOf(...checks: readonly Precheck[]): Precheck {
  return (text, at, memo) => checks.every((check) => check(text, at, memo));
}

/**
 * For a pattern that starts at `at` with a name whose run of name
 * characters `[A-Za-z0-9_.-]` is at most `max` long: a longer run from
 * `at` is no match's name. Read once per text through the memo.
 */
export function nameRunWithin(max: number): Precheck {
  return (text, at, memo) => !Number.isFinite(max) || runEnd(text, at, max, isNameChar, memo?.name, memo) - at <= max;
}

/** For a pattern of alternatives: whether any of the alternatives' prechecks says yes. */
export function anyOf(...checks: readonly Precheck[]): Precheck {
  return (text, at, memo) => checks.some((check) => check(text, at, memo));
}

/** [from, to) are all characters of one class; `done`: the run ends at `to`. */
class Run {
  from = -1;
  to = -1;
  done = false;

  reset(): void {
    this.from = -1;
    this.to = -1;
    this.done = false;
  }
}

// How far a precheck reads before it stops and lets the regex decide.
const PERMISSIVE_AFTER = 128;
// The longest bare value of generic.ts's valueAlternatives (`VALUE_CHAR{min,256}`).
const MAX_VALUE = 256;

const isNameChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
const isSpace = (c: number): boolean => c === 32 || c === 9;
const isQuote = (c: number): boolean => c === 34 || c === 39 || c === 96;

// VALUE_CHAR of generic.ts: not controls, space, quotes, `\`, `<>;,(){}[]&`, DEL.
const isValueChar = (c: number): boolean =>
  c > 32 &&
  c !== 34 &&
  c !== 39 &&
  c !== 96 &&
  c !== 92 &&
  c !== 60 &&
  c !== 62 &&
  c !== 59 &&
  c !== 44 &&
  c !== 40 &&
  c !== 41 &&
  c !== 123 &&
  c !== 125 &&
  c !== 91 &&
  c !== 93 &&
  c !== 38 &&
  c !== 127;

/**
 * After spaces from `j`: a value of at least `min` characters, quoted
 * (after any `\`s) with characters other than controls, space, the quote,
 * `\` and DEL, or bare with value characters.
 */
function valueAt(text: string, j: number, min: number, memo: PrecheckMemo | undefined): boolean {
  const n = text.length;
  while (isSpace(text.charCodeAt(j))) j++;
  let p = j;
  while (text.charCodeAt(p) === 92) p++;
  const q = text.charCodeAt(p);
  if (isQuote(q)) {
    // A value quoted twice (`"\"v\""`, `'"v"'`): the inner quote, then min value characters.
    let r = p + 1;
    while (text.charCodeAt(r) === 92) r++;
    if (isQuote(text.charCodeAt(r)) && r + 1 + min <= n) {
      let ok = true;
      for (let i = r + 1; i < r + 1 + min && ok; i++) {
        const c = text.charCodeAt(i);
        ok = !(c <= 32 || c === 34 || c === 39 || c === 92 || c === 127);
      }
      if (ok) return true;
    }
    // The quoted value is the whole run of its characters (they exclude the
    // quote and `\`, so the run cannot end earlier), min to MAX_VALUE long,
    // and the closing quote follows it after any `\`s: a run that ends
    // anywhere else (a space in `secretaccesskey: "secretaccesskey: "…`,
    // a sentence in quotes) cannot be a match's value.
    const first = p + 1;
    const stop = Math.min(n, first + MAX_VALUE + 1);
    let i = first;
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (c <= 32 || c === q || c === 92 || c === 127) break;
    }
    const length = i - first;
    if (length < min || length > MAX_VALUE) return false;
    while (text.charCodeAt(i) === 92) i++;
    return text.charCodeAt(i) === q;
  }
  if (p !== j) return false;
  if (j + min > n) return false;
  // A bare value is a whole run of min to MAX_VALUE value characters: a
  // longer run fails the pattern's look-ahead, and reading it here costs far
  // less than the regex trying every shorter length first (text that is one
  // long run of `name=name=…` offers a keyword every few characters).
  const length = valueRunEnd(text, j, memo) - j;
  return length >= min && length <= MAX_VALUE;
}

/** The end of the run of value characters from j, read up to MAX_VALUE + 1 of them. */
function valueRunEnd(text: string, j: number, memo: PrecheckMemo | undefined): number {
  return runEnd(text, j, MAX_VALUE, isValueChar, memo?.value, memo);
}

/**
 * The end of the run of `inClass` characters from j, reading at most max + 1
 * of them; with a memo, characters of a run it already read are not read again.
 */
function runEnd(text: string, j: number, max: number, inClass: (c: number) => boolean, run: Run | undefined, memo?: PrecheckMemo): number {
  const n = text.length;
  const known = run !== undefined && run.from <= j && j <= run.to;
  if (known && run.done) return run.to;
  const stop = Math.min(n, j + max + 1);
  const begin = known ? run.to : j;
  let i = begin;
  while (i < stop && inClass(text.charCodeAt(i))) i++;
  if (run !== undefined) {
    if (memo !== undefined) memo.reads += i - begin + 1;
    if (!known) run.from = j;
    run.to = i;
    run.done = i < stop || i === n;
  }
  return i;
}

/**
 * At `d`: one of the operators of ASSIGN_OPERATOR (`=` `=>` `:` `:=` `::=`
 * `:::=` `?=` `.=`, the spaced dash) or, after a quoted name, a comma; then
 * spaces and a value. Each way to read the operator is tried, since `:=`
 * may also be `:` and a value that begins with `=`.
 */
function operatorThenValue(text: string, d: number, min: number, comma: boolean, memo: PrecheckMemo | undefined): boolean {
  const c = text.charCodeAt(d);
  const next = text.charCodeAt(d + 1);
  switch (c) {
    case 61: // = =>
      return valueAt(text, d + 1, min, memo) || (next === 62 && valueAt(text, d + 2, min, memo));
    case 58: {
      // : := ::= :::=
      if (valueAt(text, d + 1, min, memo)) return true;
      let k = d + 1;
      while (k < d + 3 && text.charCodeAt(k) === 58) {
        if (text.charCodeAt(k + 1) === 61 && valueAt(text, k + 2, min, memo)) return true;
        k++;
      }
      return next === 61 && valueAt(text, d + 2, min, memo);
    }
    case 63: // ?=
    case 46: // .=
      return next === 61 && valueAt(text, d + 2, min, memo);
    case 45: // spaced dash
      return valueAt(text, d + 1, min, memo);
    case 44:
      return comma && valueAt(text, d + 1, min, memo);
    default:
      return false;
  }
}

/**
 * For patterns `NAME [A-Za-z0-9_.-]{0,n} (ASSIGN_OPERATOR value | >xml)`
 * (generic.ts) whose name is made of `[A-Za-z0-9_.-]` or is `word key`
 * with one space, and whose value has at least `min` characters: after the
 * name comes an assignment operator, a quote or `\` (quoted name) then an
 * operator or `,`, a `]` (`ENV["X"] =`), spaces then an operator or a type
 * word (`token string = …`), or `>`; after the operator and spaces, a value
 * of `min` characters.
 *
 * `maxName`: the longest run of name characters a match can hold from its
 * start (the name pattern's longest match, and the `.` of `.=`); a longer
 * run cannot be a match's name.
 *
 * The name run is read greedily: a name that ends earlier inside it can only
 * be followed by `.=` (the other operators are not name characters, and the
 * spaced dash needs a space before it), and then the greedy run ends at that
 * `=`, where the same value follows.
 */
export function assignmentFollows(min: number, maxName = Infinity): Precheck {
  return (text, from, memo) => {
    const n = text.length;
    let at = from;
    for (;;) {
      const stop = Math.min(n, at + PERMISSIVE_AFTER);
      // A short name is read here; a long run once per text through the
      // memo (`pwdpwdpwd…` is one run with a keyword every three characters).
      const quick = Math.min(stop, at + 24);
      let i0 = at;
      while (i0 < quick && isNameChar(text.charCodeAt(i0))) i0++;
      if (i0 === quick && quick < stop) i0 = Math.min(stop, runEnd(text, at, PERMISSIVE_AFTER, isNameChar, memo?.name, memo));
      // No match has a longer name run than maxName from where it starts.
      if (i0 - at > maxName) return false;
      let i = i0;
      if (i === stop) return stop < n;
      const c = text.charCodeAt(i);
      if (c === 62) return true; // `>`: the XML form
      if (c === 93) {
        i++;
        while (isSpace(text.charCodeAt(i))) i++;
        return operatorThenValue(text, i, min, false, memo);
      }
      if (c === 92 || isQuote(c)) {
        while (text.charCodeAt(i) === 92) i++;
        if (!isQuote(text.charCodeAt(i))) return false;
        i++;
        if (text.charCodeAt(i) === 93) i++;
        while (isSpace(text.charCodeAt(i))) i++;
        return operatorThenValue(text, i, min, true, memo);
      }
      if (isSpace(c)) {
        const first = i;
        while (isSpace(text.charCodeAt(i))) i++;
        const d = text.charCodeAt(i);
        // `string`, `str`, `String`, `char*` (case-insensitive patterns).
        if (d === 115 || d === 83 || d === 99 || d === 67) return true;
        // `api key`, `secret key`: the name goes on after one space, once
        // (the names hold one space at most, and the rest of a name none):
        // `sdk keysdk keysdk key…` read 128 characters from every hit. A
        // loop, not a call: `key key key …` would otherwise nest one call
        // per word and overflow the stack.
        if (at === from && c === 32 && i === first + 1 && (d | 32) === 107 && (text.charCodeAt(i + 1) | 32) === 101 && (text.charCodeAt(i + 2) | 32) === 121) {
          if (i - from > PERMISSIVE_AFTER) return true;
          at = i;
          continue;
        }
        return operatorThenValue(text, i, min, false, memo);
      }
      return operatorThenValue(text, i, min, false, memo);
    }
  };
}

/** The look-behind of prefixed tokens (`BEFORE`), read directly. */
export const tokenBoundaryBefore: Precheck = (text, at) => {
  if (at === 0) return true;
  const c = text.charCodeAt(at - 1);
  const glued = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 43 || c === 47 || c === 46;
  if (!glued) return true;
  // After a literal `\n`, `\r` or `\t` escape (text JSON-escaped twice).
  return at >= 2 && text.charCodeAt(at - 2) === 92 && (c === 110 || c === 114 || c === 116);
};

const isUserinfoChar = (c: number): boolean => c > 32 && c !== 34 && c !== 39 && c !== 60 && c !== 62 && c !== 64 && c !== 47 && c !== 92 && c !== 63 && c !== 35 && c !== 96;

/**
 * For `scheme://userinfo@` patterns whose scheme (and `+suffix`) is made of
 * `[A-Za-z0-9+]` and whose userinfo excludes controls, space, quotes, `<>`,
 * `/`, `\`, `?`, `#` and `@`: the first character after `://` that
 * userinfo may not hold is the `@`.
 */
export const userinfoThenAt: Precheck = (text, at) => userinfoAfterScheme(text, at, PERMISSIVE_AFTER);

/**
 * `userinfoThenAt` for a pattern that starts at `at` with a scheme of at
 * most `maxScheme` characters (`(?:ftp|ftps|sftp)(?:\+[a-z0-9]{1,20})?`)
 * and, with `boundary`, not after `[A-Za-z0-9+.-]` (its look-behind). Text
 * that is one run of scheme names (`sftpsftp…`, three keyword hits every
 * four characters) had each hit read 128 scheme characters.
 */
export function schemeUserinfo(maxScheme: number, boundary: boolean): Precheck {
  return (text, at) => {
    if (boundary && at > 0) {
      const c = text.charCodeAt(at - 1);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45) return false;
    }
    return userinfoAfterScheme(text, at, maxScheme);
  };
}

/** A run of at most `maxScheme` scheme characters from `at` (past that, with maxScheme = PERMISSIVE_AFTER, the regex decides), `://`, userinfo, `@`. */
function userinfoAfterScheme(text: string, at: number, maxScheme: number): boolean {
  const n = text.length;
  let i = at;
  const schemeStop = Math.min(n, at + maxScheme);
  for (;;) {
    if (i === schemeStop) {
      if (maxScheme === PERMISSIVE_AFTER) return schemeStop < n;
      if (schemeStop === n) return false;
      // A scheme character past maxScheme: no match's scheme is that long.
      const c = text.charCodeAt(i);
      if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43) return false;
      break;
    }
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43) i++;
    else break;
  }
  if (text.charCodeAt(i) !== 58 || text.charCodeAt(i + 1) !== 47 || text.charCodeAt(i + 2) !== 47) return false;
  i += 3;
  // USER (128) + `:` + PASSWORD (256) is the longest userinfo.
  const stop = Math.min(n, i + 400);
  while (i < stop && isUserinfoChar(text.charCodeAt(i))) i++;
  if (i === stop) return stop < n;
  return text.charCodeAt(i) === 64;
}

/**
 * any-url-password, anchored at `://`: a scheme character stands before it
 * and the scheme is not http or https (those have url-credentials).
 */
export const otherSchemeUserinfo: Precheck = (text, at) => {
  if (at === 0) return false;
  const c = text.charCodeAt(at - 1);
  const schemeChar = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
  if (!schemeChar) return false;
  if ((at >= 4 && text.startsWith('http', at - 4)) || (at >= 5 && text.startsWith('https', at - 5))) return false;
  return userinfoThenAt(text, at);
};

/** `Password` / `Pwd`, `[ \t]*`, then `=` (ADO.NET connection strings). */
export const lettersThenEquals: Precheck = (text, at) => {
  const n = text.length;
  // `Password` is the longest name: more letters cannot match (`pwdpwdpwd…`).
  const stop = Math.min(n, at + 9);
  let i = at;
  for (;;) {
    if (i === stop) return false;
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) i++;
    else break;
  }
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 61;
};

const isHeaderTokenChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 95 || c === 126 || c === 43 || c === 47 || c === 45;

const isHeaderNameChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45;

/**
 * Header rules `NAME \\{0,2}["']? [ \t]* [:=] [ \t]* \\{0,2}["']? …`, NAME
 * made of letters and `-` and at most `maxName` long: the separator after
 * the name. `separators` are the accepted separator characters. A longer
 * run of name characters is no match's name (`x-api-keyx-api-key…` had
 * each hit read 128 characters before the regex refused it).
 */
export function headerSeparator(separators: string, maxName = PERMISSIVE_AFTER): Precheck {
  const codes = [...separators].map((s) => s.charCodeAt(0));
  const bounded = maxName < PERMISSIVE_AFTER;
  return (text, at, memo) => {
    const n = text.length;
    let i = at;
    if (bounded) {
      // Read once per text through the memo, however many hits fall in the run.
      i = runEnd(text, at, maxName, isHeaderNameChar, memo?.header, memo);
      if (i - at > maxName) return false;
    } else {
      const stop = Math.min(n, at + PERMISSIVE_AFTER);
      for (;;) {
        if (i === stop) return stop < n;
        if (isHeaderNameChar(text.charCodeAt(i))) i++;
        else break;
      }
    }
    while (i < n && text.charCodeAt(i) === 92) i++;
    if (isQuote(text.charCodeAt(i))) i++;
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    return codes.includes(text.charCodeAt(i));
  };
}

/**
 * `Bearer`, `[ \t]+`, then at least 16 characters of a header token; not
 * glued to a letter or digit before it.
 */
export const bearerToken: Precheck = (text, at) => {
  if (at > 0) {
    const c = text.charCodeAt(at - 1);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) return false;
  }
  const n = text.length;
  let i = at + 6;
  if (!isSpace(text.charCodeAt(i))) return false;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  const start = i;
  while (i < n && i - start < 16 && isHeaderTokenChar(text.charCodeAt(i))) i++;
  return i - start >= 16;
};

// Characters of a log-key-value value: not controls, space, quotes, `<>,;&`, `\`.
const isLogValueChar = (c: number): boolean => c > 32 && c !== 34 && c !== 39 && c !== 96 && c !== 60 && c !== 62 && c !== 44 && c !== 59 && c !== 38 && c !== 92;

/** `key`, `[ \t]*`, `=` or `:`, `[ \t]*`, `\`s and a quote, then a run of 16 to 256 value characters. */
export const keyThenLongValue: Precheck = (text, at, memo) => {
  const n = text.length;
  let i = at + 3;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  const op = text.charCodeAt(i);
  if (op !== 61 && op !== 58) return false;
  i++;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  while (i < n && text.charCodeAt(i) === 92) i++;
  if (text.charCodeAt(i) === 34 || text.charCodeAt(i) === 39) i++;
  // 16 to 256 value characters, then one that is not (the pattern's look-ahead).
  const length = runEnd(text, i, 256, isLogValueChar, memo?.log, memo) - i;
  return length >= 16 && length <= 256;
};

/**
 * An upper bound on the length of any match of a regex source, or Infinity
 * when it has none or the source uses something not read here (a
 * backreference, an unbounded quantifier). Look-arounds and anchors count 0.
 */
export function maxMatchLength(source: string): number {
  let i = 0;
  const alternation = (): number => {
    let best = sequence();
    while (source[i] === '|') {
      i++;
      best = Math.max(best, sequence());
    }
    return best;
  };
  const sequence = (): number => {
    let total = 0;
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const atom = atomLength();
      total += atom * quantifier();
    }
    return total;
  };
  const atomLength = (): number => {
    const c = source[i]!;
    if (c === '(') {
      let zeroWidth = false;
      if (source.startsWith('(?:', i)) i += 3;
      else if (source.startsWith('(?=', i) || source.startsWith('(?!', i)) {
        i += 3;
        zeroWidth = true;
      } else if (source.startsWith('(?<=', i) || source.startsWith('(?<!', i)) {
        i += 4;
        zeroWidth = true;
      } else if (source.startsWith('(?<', i)) i = source.indexOf('>', i) + 1;
      else i++;
      const inner = alternation();
      if (source[i] !== ')') return Infinity;
      i++;
      return zeroWidth ? 0 : inner;
    }
    if (c === '[') {
      i = classEnd(source, i);
      return 1;
    }
    if (c === '\\') {
      const e = source[i + 1]!;
      if (/[1-9k]/.test(e)) {
        i = source.length; // no bound: stop reading
        return Infinity;
      }
      if (e === 'b' || e === 'B') {
        i += 2;
        return 0;
      }
      i += e === 'u' ? 6 : e === 'x' ? 4 : 2;
      return 1;
    }
    i++;
    return c === '^' || c === '$' ? 0 : 1;
  };
  const quantifier = (): number => {
    const q = quantifierAt(source, i);
    if (q === null) return 1;
    i += q.length;
    return q.max;
  };
  const length = alternation();
  return i === source.length ? length : Infinity;
}

// The characters `AFTER` (rule.ts) refuses after a token: `[A-Za-z0-9_+/=-]`.
const isTokenRunChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 43 || c === 47 || c === 61 || c === 45;

const tokenPrechecks = new WeakSet<Precheck>();

/**
 * The precheck of a prefixed token whose matches are at most `max`
 * characters long: its look-behind (`tokenBoundaryBefore`), then that the
 * run of `[A-Za-z0-9_+/=-]` from `at` ends within `max` characters. A match
 * must end where `AFTER` holds, so past every character of that run: a run
 * longer than any match cannot be one (text such as `fo1_=fo1_=…` is one
 * run with a keyword every five characters, and each regex attempt read up
 * to its 4,096-character maximum and backtracked over it). The run is read
 * once per text through the memo.
 */
export function prefixedTokenPrecheck(max: number): Precheck {
  const check: Precheck = (text, at, memo) => {
    if (!tokenBoundaryBefore(text, at)) return false;
    if (!Number.isFinite(max)) return true;
    return runEnd(text, at, max, isTokenRunChar, memo?.token, memo) - at <= max;
  };
  tokenPrechecks.add(check);
  return check;
}

/**
 * The same bound for a pattern that starts at `at` and ends with `AFTER`
 * (rule.ts's contextual assignments, `NAME=value`): its matches are at most
 * `max` long, and end past the run of `[A-Za-z0-9_+/=-]` from `at`.
 */
export function tokenRunWithin(max: number): Precheck {
  return (text, at, memo) => !Number.isFinite(max) || runEnd(text, at, max, isTokenRunChar, memo?.token, memo) - at <= max;
}

/** Whether a precheck is one of `prefixedTokenPrecheck`'s. */
export function isTokenPrecheck(p: Precheck): boolean {
  return tokenPrechecks.has(p);
}

// `[A-Za-z0-9._~+/=-]`: the characters of an npm `_authToken` value.
const isUrlTokenChar = (c: number): boolean => isTokenRunChar(c) || c === 46 || c === 126;

/**
 * As `tokenRunWithin`, for a pattern that starts at `at`, holds no character
 * outside `[A-Za-z0-9._~+/=-]` but spaces and quotes, and ends where that
 * class's run ends (npmrc-auth-token): a run from `at` longer than any match
 * cannot hold one (`_authToken=_authToken=…` is one run).
 */
export function urlTokenRunWithin(max: number): Precheck {
  return (text, at, memo) => !Number.isFinite(max) || runEnd(text, at, max, isUrlTokenChar, memo?.urlToken, memo) - at <= max;
}
