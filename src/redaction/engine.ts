import { shannonEntropy } from './entropy.js';
import { notPlaceholder } from './filters.js';
import { KeywordIndex } from './keyword-index.js';
import { findPairHalves } from './pairs.js';
import type { Budget } from './budget.js';
import type { Candidate } from './candidate.js';
import { PrecheckMemo, isTokenPrecheck, tokenBoundaryBefore, type Precheck } from './prechecks.js';
import type { MatchContext, Rule } from './rule.js';
import { clearValueFacts } from './value-facts.js';

export type { Candidate } from './candidate.js';

interface CompiledRule {
  readonly rule: Rule;
  /** Without the `d` flag: match indices double the cost of a match (see `record`). */
  readonly regex: RegExp;
  /** Sticky twin of a windowed rule's regex, to finish a match the window cut short. */
  readonly sticky: RegExp | null;
  /** Sticky, with `d`: a match again where the secret's offset cannot be read from the match alone. */
  readonly indexed: RegExp;
  readonly windowed: boolean;
  readonly before: number;
  readonly after: number;
  readonly anchorBack: number;
  readonly precheck: Precheck | null;
  readonly entropy: number;
  readonly accept: (secret: string, context: MatchContext) => boolean;
}

interface Dispatch {
  readonly rule: number;
  /** Set when the keyword has upper-case letters and must match exactly. */
  readonly exact: string | null;
}

// Characters of real context on each side of a window, so that look-behind
// and look-ahead at the window's edge see the text rather than its end.
const MARGIN = 64;
// The keyword automaton runs in chunks of this many characters between two
// looks at the clock, so that a huge body cannot outrun the budget.
const CHUNK = 1 << 16;
// Dense keyword hits merge into one window; past this size it is searched and
// a new one begun, so that one regex search stays short next to the budget.
const MAX_WINDOW = 1 << 15;

/** Compiles rules once; `scan` then finds candidates in one string. */
export class Scanner {
  private readonly compiled: readonly CompiledRule[];
  private readonly index: KeywordIndex;
  // Keyword to rule dispatch, flattened for the per-hit path: keyword k's targets
  // are entries [targetStart[k], targetStart[k + 1]) of targetRule and
  // targetExact; per rule, whether it is windowed and its anchor offset.
  private readonly targetStart: Int32Array;
  private readonly targetRule: Int32Array;
  private readonly targetExact: readonly (string | null)[];
  private readonly ruleWindowed: Uint8Array;
  private readonly ruleAnchorBack: Int32Array;
  private readonly rulePrecheck: readonly (Precheck | null)[];
  /** Per rule, 1 when it is anchored and its precheck starts with a prefixed token's look-behind. */
  private readonly ruleBoundary: Uint8Array;
  private readonly keywordLength: Int32Array;
  // Per-rule window state for the string being scanned.
  private readonly winStart: Int32Array;
  private readonly winEnd: Int32Array;
  private readonly lastAnchor: Int32Array;
  /** Per anchored rule, the end of its last recorded match in the text being scanned. */
  private readonly matchEnd: Int32Array;
  /** Per anchored rule, 1 once a match in this text needed indices (see `record`): its next attempts ask for them. */
  private readonly withIndices: Uint8Array;
  private readonly open: number[] = [];
  private readonly memo = new PrecheckMemo();
  /** Characters examined since the caller last reset it (keyword pass and regex windows). */
  work = 0;

  constructor(rules: readonly Rule[]) {
    this.compiled = rules.map(compile);
    const keywordIds = new Map<string, number>();
    const dispatch: Dispatch[][] = [];
    rules.forEach((rule, r) => {
      for (const keyword of rule.keywords) {
        const lower = keyword.toLowerCase();
        let id = keywordIds.get(lower);
        if (id === undefined) {
          id = keywordIds.size;
          keywordIds.set(lower, id);
          dispatch.push([]);
        }
        dispatch[id]!.push({ rule: r, exact: lower === keyword ? null : keyword });
      }
    });
    this.index = new KeywordIndex([...keywordIds.keys()]);
    this.targetStart = new Int32Array(dispatch.length + 1);
    dispatch.forEach((targets, k) => (this.targetStart[k + 1] = this.targetStart[k]! + targets.length));
    const flat = dispatch.flat();
    this.targetRule = Int32Array.from(flat, (d) => d.rule);
    this.targetExact = flat.map((d) => d.exact);
    this.ruleWindowed = Uint8Array.from(this.compiled, (c) => (c.windowed ? 1 : 0));
    this.ruleAnchorBack = Int32Array.from(this.compiled, (c) => c.anchorBack);
    this.rulePrecheck = this.compiled.map((c) => c.precheck);
    this.ruleBoundary = Uint8Array.from(this.compiled, (c) => (!c.windowed && c.precheck !== null && isTokenPrecheck(c.precheck) ? 1 : 0));
    this.keywordLength = Int32Array.from(this.index.keywords, (k) => k.length);
    this.winStart = new Int32Array(rules.length).fill(-1);
    this.winEnd = new Int32Array(rules.length);
    this.lastAnchor = new Int32Array(rules.length).fill(-1);
    this.matchEnd = new Int32Array(rules.length);
    this.withIndices = new Uint8Array(rules.length);
  }

  /**
   * Appends to `out` every candidate in `text`, until the budget runs out.
   * `bytes` from `bytesStart` on, if given, are `text` read as latin1 (the
   * raw body, when a string has no escapes); otherwise they are made here.
   */
  scan(text: string, budget: Budget, out: Candidate[], bytes?: Uint8Array, bytesStart = 0): void {
    const { compiled, keywordLength, winStart, winEnd, lastAnchor, matchEnd, open } = this;
    const { targetStart, targetRule, targetExact, ruleWindowed, ruleAnchorBack, rulePrecheck, ruleBoundary } = this;
    const length = text.length;
    const memo = this.memo;
    memo.reset();
    const readsBefore = memo.reads;
    const onHit = (keyword: number, start: number): void => {
      if (budget.exhausted) return;
      const end = targetStart[keyword + 1]!;
      for (let t = targetStart[keyword]!; t < end; t++) {
        const r = targetRule[t]!;
        const exact = targetExact[t]!;
        if (exact !== null) {
          // A prefixed token's look-behind (one character) is read before
          // its keyword's exact spelling: in a run of `A`, the 21-A keyword
          // of two rules hits at every character, and comparing it cost
          // more than all else.
          if (ruleBoundary[r] === 1 && !tokenBoundaryBefore(text, start - ruleAnchorBack[r]!)) continue;
          this.work += exact.length;
          if (!text.startsWith(exact, start)) continue;
        }
        if (ruleWindowed[r] === 1) {
          const c = compiled[r]!;
          const ws = Math.max(0, start - c.before);
          const we = Math.min(length, start + keywordLength[keyword]! + c.after);
          if (winStart[r]! >= 0) {
            if (ws <= winEnd[r]! && we - winStart[r]! <= MAX_WINDOW) {
              if (we > winEnd[r]!) winEnd[r] = we;
              if (ws < winStart[r]!) winStart[r] = ws;
              continue;
            }
            this.searchWindow(r, text, winStart[r]!, winEnd[r]!, budget, out);
          } else {
            open.push(r);
          }
          winStart[r] = ws;
          winEnd[r] = we;
        } else {
          const at = start - ruleAnchorBack[r]!;
          // A hit inside the rule's last match is not tried again: matches of
          // one rule do not overlap (leftmost first, as a windowed rule's
          // search does), else text built of one keyword and value repeated
          // makes every hit a match that reads and judges a whole value.
          if (at < 0 || lastAnchor[r] === at || at < matchEnd[r]!) continue;
          const precheck = rulePrecheck[r]!;
          if (precheck !== null) {
            this.work++;
            if (!precheck(text, at, memo)) continue;
          }
          if (lastAnchor[r]! < 0) open.push(r);
          lastAnchor[r] = at;
          this.matchAt(r, text, at, out);
          budget.tick();
        }
      }
    };

    this.work += length;
    const b = bytes ?? Buffer.from(text, 'latin1');
    const base = bytes === undefined ? 0 : bytesStart;
    let state = 0;
    for (let from = 0; from < length && !budget.exhausted; from += CHUNK) {
      state = this.index.scan(b, base + from, base + Math.min(length, from + CHUNK), onHit, state, base);
      budget.check();
    }
    for (const r of open) {
      if (winStart[r]! >= 0 && !budget.exhausted) {
        this.searchWindow(r, text, winStart[r]!, winEnd[r]!, budget, out);
      }
      winStart[r] = -1;
      lastAnchor[r] = -1;
      matchEnd[r] = 0;
      this.withIndices[r] = 0;
    }
    open.length = 0;
    this.work += memo.reads - readsBefore;
    // The memos hold values of this text; they are not kept past its scan.
    clearValueFacts();
  }

  private matchAt(r: number, text: string, at: number, out: Candidate[]): void {
    const c = this.compiled[r]!;
    const re = this.withIndices[r] === 1 ? c.indexed : c.regex;
    re.lastIndex = at;
    const m = re.exec(text);
    // An anchored attempt reads at most its match, or up to the first character that fails it.
    this.work += m === null ? 1 : m[0].length;
    if (m !== null && this.record(r, c, m, text, 0, out)) this.matchEnd[r] = m.index + m[0].length;
  }

  private searchWindow(r: number, text: string, ws: number, we: number, budget: Budget, out: Candidate[]): void {
    const c = this.compiled[r]!;
    const sliceStart = Math.max(0, ws - MARGIN);
    const sliceEnd = Math.min(text.length, we + MARGIN);
    const slice = sliceStart === 0 && sliceEnd === text.length ? text : text.slice(sliceStart, sliceEnd);
    this.work += sliceEnd - sliceStart;
    const re = c.regex;
    re.lastIndex = ws - sliceStart;
    const last = we - sliceStart;
    let m: RegExpExecArray | null;
    while ((m = re.exec(slice)) !== null) {
      if (m.index > last) break;
      const end = m.index + m[0].length;
      if (end >= slice.length && sliceEnd < text.length && c.sticky !== null) {
        // The match ran into the slice's end: the secret may go on past the
        // window. Match again at the same place on the whole text (the
        // pattern's bounded quantifiers bound how far it reads).
        c.sticky.lastIndex = sliceStart + m.index;
        const whole = c.sticky.exec(text);
        if (whole !== null) {
          this.work += whole[0].length;
          this.record(r, c, whole, text, 0, out);
          re.lastIndex = whole.index + whole[0].length - sliceStart;
          if (budget.tick()) break;
          continue;
        }
      }
      this.record(r, c, m, slice, sliceStart, out);
      if (m[0].length === 0) re.lastIndex++;
      if (budget.tick()) break;
    }
    budget.tick();
  }

  /** Adds the match's secret to `out` unless a filter rejects it; whether it did. */
  private record(r: number, c: CompiledRule, m: RegExpExecArray, text: string, offset: number, out: Candidate[]): boolean {
    let start = m.index;
    let end = m.index + m[0].length;
    let secret = m[0];
    for (let g = 1; g < m.length; g++) {
      const value = m[g];
      if (value === undefined) continue;
      // The group's offset is where its text occurs in the match, when it
      // occurs there once; otherwise the match is made again with indices
      // (same place, same pattern: the same match). Indices on every
      // attempt cost as much as the attempt itself.
      secret = value;
      const k = m.indices === undefined ? m[0].indexOf(value) : -1;
      if (m.indices !== undefined) start = m.indices[g]![0];
      else if (k >= 0 && k === m[0].lastIndexOf(value)) start = m.index + k;
      else {
        // Text where values repeat their names (`passwd=>passwd=>…`) would
        // have every match made twice: the rule asks for indices from now
        // on in this text.
        if (!c.windowed) this.withIndices[r] = 1;
        c.indexed.lastIndex = m.index;
        const span = c.indexed.exec(text)?.indices?.[g];
        if (span === undefined) return false;
        start = span[0];
      }
      end = start + value.length;
      break;
    }
    if (end <= start) return false;
    if (c.entropy > 0 && shannonEntropy(secret) < c.entropy) return false;
    if (!c.accept(secret, { text, matchStart: m.index, secretStart: start, secretEnd: end })) return false;
    out.push({ start: start + offset, end: end + offset, rule: r });
    this.work += findPairHalves(text, start, end, offset, r, out);
    return true;
  }
}

function compile(rule: Rule): CompiledRule {
  const flags = rule.pattern.flags.replace(/[gyd]/g, '');
  const windowed = rule.window !== undefined;
  return {
    rule,
    regex: new RegExp(rule.pattern.source, `${flags}${windowed ? 'g' : 'y'}`),
    sticky: windowed ? new RegExp(rule.pattern.source, `${flags}y`) : null,
    indexed: new RegExp(rule.pattern.source, `${flags}dy`),
    windowed,
    before: rule.window?.before ?? 0,
    after: rule.window?.after ?? 0,
    anchorBack: rule.anchorBack ?? 0,
    precheck: rule.precheck ?? null,
    entropy: rule.entropy ?? 0,
    accept: rule.accept ?? notPlaceholder,
  };
}
