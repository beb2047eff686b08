import { Budget, type Clock } from './budget.js';
import { Scanner, type Candidate } from './engine.js';
import { collectTextSegments, type JsonString, type TextSegment } from './json-strings.js';
import { findRepeats, MIN_REPEAT_LENGTH, spellings, type FoundValue } from './repeats.js';
import { jsonEscape, resolveOverlaps, splice, type Span } from './splice.js';
import type { Rule } from './rule.js';

export interface RedactionFinding {
  ruleId: string;
  start: number;
  end: number;
}

export interface RedactionResult {
  body: Buffer;
  findings: RedactionFinding[];
  countsByRule: Record<string, number>;
  budgetExhausted: boolean;
}

/**
 * No limit: the gateway scans every byte of every body it forwards. A
 * budget exists only for `gw redact --budget-ms` and tests.
 */
export const DEFAULT_BUDGET_MS = Number.POSITIVE_INFINITY;

// How much of a long member value is scanned together with its name.
const KEYED_HEAD = 1024;

/** Rules compiled once, with their placeholders pre-encoded. */
export class Redactor {
  private readonly scanner: Scanner;
  private readonly placeholders: readonly Buffer[];
  private readonly specificity: Int32Array;
  private readonly ids: readonly string[];
  /**
   * Units of work of the last call (characters the keyword pass, the rule
   * regexes' windows and the repeat search went over), so that a test can
   * check that a scan grows linearly with the body without timing it.
   */
  lastWork = 0;

  constructor(rules: readonly Rule[]) {
    this.scanner = new Scanner(rules);
    this.ids = rules.map((r) => r.id);
    this.placeholders = rules.map((r) => Buffer.from(jsonEscape(`[REDACTED: ${r.id}]`), 'latin1'));
    this.specificity = Int32Array.from(rules, (r) => r.specificity);
  }

  redactText(input: Buffer, budgetMs: number, clock: Clock): RedactionResult {
    this.scanner.work = 0;
    return this.scanText(input, new Budget(budgetMs, clock));
  }

  redactJsonBody(input: Buffer, budgetMs: number, clock: Clock): RedactionResult {
    this.scanner.work = 0;
    const budget = new Budget(budgetMs, clock);
    const segments = collectTextSegments(input);
    if (segments === null) return this.scanText(input, budget);
    this.scanner.work += input.length;
    const spans: Span[] = [];
    const found: Candidate[] = [];
    // One copy of the body; each string is then a slice of it (no copy) or,
    // when it has escapes, decoded from such a slice.
    const whole = input.toString('latin1');
    try {
      for (const segment of segments) {
        if (budget.tick()) break;
        found.length = 0;
        this.scanSegment(input, whole, segment, budget, found, spans);
      }
    } catch (err) {
      // A string JSON.parse will not decode makes the body invalid JSON.
      if (err instanceof SyntaxError) return this.scanText(input, budget);
      throw err;
    }
    return this.finish(input, spans, budget, true);
  }

  private scanText(input: Buffer, budget: Budget): RedactionResult {
    const candidates: Candidate[] = [];
    if (!budget.check()) this.scanner.scan(input.toString('latin1'), budget, candidates, input);
    return this.finish(input, candidates, budget, false);
  }

  private scanSegment(input: Buffer, whole: string, seg: TextSegment, budget: Budget, found: Candidate[], spans: Span[]): void {
    const { key, value } = seg;
    const v = decoded(whole, value);
    // An unescaped string's characters are its raw bytes.
    const vBytes = value.escaped ? undefined : input;
    if (key === null) {
      this.scanner.scan(v, budget, found, vBytes, value.start);
      if (found.length > 0) this.mapToRaw(input, value, found, 0, v.length, spans);
      return;
    }
    // `"key":"value"` as one text, so that assignment rules see the name. A
    // long value is scanned on its own too, and only its head with the key:
    // a name gives context to the value just after it, and the whole value
    // need not be copied again.
    const k = decoded(whole, key);
    const long = v.length > KEYED_HEAD;
    const text = `"${k}":"${long ? v.slice(0, KEYED_HEAD) : v}"`;
    this.scanner.scan(text, budget, found);
    if (found.length > 0) {
      const ke = 1 + k.length;
      const vs = ke + 3;
      const inKey: Candidate[] = [];
      const inValue: Candidate[] = [];
      for (const c of found) (c.end > vs ? inValue : inKey).push(c);
      if (inKey.length > 0) this.mapToRaw(input, key, inKey, 1, ke, spans);
      if (inValue.length > 0) this.mapToRaw(input, value, inValue, vs, text.length - 1, spans);
    }
    if (long) {
      found.length = 0;
      this.scanner.scan(v, budget, found, vBytes, value.start);
      if (found.length > 0) this.mapToRaw(input, value, found, 0, v.length, spans);
    }
  }

  /**
   * Turns candidates found in text[from, to) (the decoded string `s`) into
   * raw byte spans, clipped to the string. One forward walk over the raw
   * bytes serves all candidates, so many findings in a long escaped string
   * stay linear.
   */
  private mapToRaw(input: Buffer, s: JsonString, found: Candidate[], from: number, to: number, spans: Span[]): void {
    const targets: number[] = [];
    for (const c of found) targets.push(Math.max(c.start, from) - from, Math.min(c.end, to) - from);
    const raw = s.escaped ? rawOffsets(input, s, targets) : targets.map((t) => s.start + t);
    for (let i = 0; i < found.length; i++) {
      const start = raw[2 * i]!;
      const end = raw[2 * i + 1]!;
      if (end > start) spans.push({ start, end, rule: found[i]!.rule });
    }
  }

  private foundValues(input: Buffer, spans: readonly Span[], json: boolean): FoundValue[] {
    return foundValuesOf(input, spans, json);
  }

  private finish(input: Buffer, spans: Span[], budget: Budget, json: boolean): RedactionResult {
    const budgetExhausted = budget.exhausted;
    this.lastWork = this.scanner.work;
    if (spans.length === 0) return { body: input, findings: [], countsByRule: {}, budgetExhausted };
    const bySpecificity = (r: number): number => this.specificity[r]!;
    let resolved = resolveOverlaps(spans, bySpecificity);
    if (!budgetExhausted) {
      const before = resolved.length;
      this.lastWork += findRepeats(input, this.foundValues(input, resolved, json), json, resolved);
      if (resolved.length > before) resolved = resolveOverlaps(resolved, bySpecificity);
    }
    const findings: RedactionFinding[] = [];
    const countsByRule: Record<string, number> = {};
    for (const s of resolved) {
      const ruleId = this.ids[s.rule]!;
      findings.push({ ruleId, start: s.start, end: s.end });
      countsByRule[ruleId] = (countsByRule[ruleId] ?? 0) + 1;
    }
    const body = splice(input, resolved, (r) => this.placeholders[r]!);
    return { body, findings, countsByRule, budgetExhausted };
  }
}

/**
 * The text of a JSON string, from the body read as latin1 (one character
 * per byte): escapes decoded natively by JSON.parse, which also rejects bad
 * escapes and raw control characters with a SyntaxError.
 */
function decoded(whole: string, s: JsonString): string {
  if (!s.escaped) return whole.slice(s.start, s.end);
  return JSON.parse(whole.slice(s.start - 1, s.end + 1)) as string;
}

/**
 * The distinct values found, with every spelling a copy of each could have
 * elsewhere in the body.
 */
function foundValuesOf(input: Buffer, spans: readonly Span[], json: boolean): FoundValue[] {
  const seen = new Set<string>();
  const out: FoundValue[] = [];
  let previous: Buffer | null = null;
  for (const s of spans) {
    const raw = input.subarray(s.start, s.end);
    // The same value as the span before (a value repeated through the body) needs no string made of it.
    if (previous !== null && previous.length === raw.length && previous.equals(raw)) continue;
    previous = raw;
    const key = raw.toString('latin1');
    if (seen.has(key)) continue;
    seen.add(key);
    if (plainAscii(raw)) {
      // Printable ASCII with nothing JSON escapes (no `"`, `\`, `/`): the
      // value is its raw bytes in every spelling, and those are valid string
      // content, so no decoding and no other spelling is made (most random
      // keys; a body dense with distinct findings made four strings and
      // three buffers per value).
      if (raw.length >= MIN_REPEAT_LENGTH) out.push({ spellings: [Buffer.from(raw)], rule: s.rule, plain: true });
      continue;
    }
    let decoded = raw.toString('utf8');
    if (json) {
      try {
        decoded = JSON.parse(`"${decoded}"`) as string;
      } catch {
        // Not whole string content (a span clipped at a string's edge): its raw bytes still count.
      }
    }
    if (decoded.length < MIN_REPEAT_LENGTH) continue;
    out.push({ spellings: spellings(decoded, Buffer.from(raw)), rule: s.rule });
  }
  return out;
}

/** Whether every byte is printable ASCII other than `"`, `\` and `/` (what `JSON.stringify` escapes, and `/` for the `\/` spelling). */
function plainAscii(raw: Uint8Array): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c || c === 0x2f) return false;
  }
  return true;
}

/**
 * Raw offsets of decoded positions (relative to the string's start) in an
 * escaped JSON string: every escape is one decoded character, as JSON.parse
 * produces (a surrogate pair is two escapes and two characters).
 */
function rawOffsets(input: Buffer, s: JsonString, targets: readonly number[]): number[] {
  const order = targets.map((_, i) => i).sort((a, b) => targets[a]! - targets[b]!);
  const out = new Array<number>(targets.length);
  let p = s.start;
  let d = 0;
  for (const i of order) {
    const t = targets[i]!;
    while (d < t && p < s.end) {
      p += input[p] !== 0x5c ? 1 : input[p + 1] === 0x75 ? 6 : 2;
      d++;
    }
    out[i] = p;
  }
  return out;
}
