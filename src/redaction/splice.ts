/** A span of the raw input to replace, and the rule that names it. */
export interface Span {
  start: number;
  end: number;
  rule: number;
}

/**
 * Sorts spans and merges the overlapping ones. A merged span covers the union
 * (no part of any candidate secret survives) and is named after its most
 * specific rule; ties go to the longer original span. In place: `spans` and
 * its objects are reused (a body dense with findings has tens of thousands).
 */
export function resolveOverlaps(spans: Span[], specificity: (rule: number) => number): Span[] {
  if (spans.length <= 1) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let n = 0;
  let cur = spans[0]!;
  let curLen = cur.end - cur.start;
  for (let k = 1; k < spans.length; k++) {
    const s = spans[k]!;
    if (s.start < cur.end) {
      const len = s.end - s.start;
      const a = specificity(s.rule);
      const b = specificity(cur.rule);
      if (a > b || (a === b && len > curLen)) {
        cur.rule = s.rule;
        curLen = len;
      }
      if (s.end > cur.end) cur.end = s.end;
    } else {
      spans[n++] = cur;
      cur = s;
      curLen = cur.end - cur.start;
    }
  }
  spans[n++] = cur;
  spans.length = n;
  return spans;
}

/** Copies `input` with each (sorted, disjoint) span replaced by its placeholder. */
export function splice(input: Uint8Array, spans: readonly Span[], placeholder: (rule: number) => Uint8Array): Buffer {
  let size = input.length;
  for (const s of spans) size += placeholder(s.rule).length - (s.end - s.start);
  const out = Buffer.allocUnsafe(size);
  let from = 0;
  let at = 0;
  for (const s of spans) {
    out.set(input.subarray(from, s.start), at);
    at += s.start - from;
    const p = placeholder(s.rule);
    out.set(p, at);
    at += p.length;
    from = s.end;
  }
  out.set(input.subarray(from), at);
  return out;
}

/** The text of a placeholder inside a JSON string: `"` and `\` escaped. */
export function jsonEscape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
