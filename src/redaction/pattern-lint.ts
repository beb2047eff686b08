// Static check of rule patterns for the regex shapes that can backtrack
// without bound in V8's engine: an unbounded quantifier (`*`, `+`, `{n,}`),
// and worst of all one nested inside another repeated group (`(a+)+`). Rule
// patterns must use bounded counts only; a unit test runs this on every rule.

export interface PatternProblem {
  readonly kind: 'unbounded' | 'nested-unbounded';
  /** Offset in the pattern source. */
  readonly at: number;
  readonly detail: string;
}

interface Group {
  readonly start: number;
  hasUnbounded: boolean;
}

/**
 * Quantifier at `source[i]`, or null: its length, whether its maximum is unbounded or above one, and that maximum
 * (`max`, Infinity when unbounded). Shared with prechecks.ts, which reads the same sources for their longest match.
 */
export function quantifierAt(source: string, i: number): { length: number; unbounded: boolean; repeats: boolean; max: number } | null {
  const c = source[i];
  let length = 0;
  let max = 1;
  if (c === '*' || c === '+') {
    length = 1;
    max = Infinity;
  } else if (c === '?') {
    length = 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
    if (m === null) return null; // a literal brace
    length = m[0].length;
    max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  } else return null;
  if (source[i + length] === '?') length++; // lazy
  return { length, unbounded: max === Infinity, repeats: max > 1, max };
}

/** The index just past the character class that opens at `source[i]` (`[`). */
export function classEnd(source: string, i: number): number {
  i++;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++;
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

export function lintPattern(source: string): PatternProblem[] {
  const problems: PatternProblem[] = [];
  const stack: Group[] = [{ start: 0, hasUnbounded: false }];
  // The group that just closed, if the next token could quantify it.
  let closed: Group | null = null;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const q = quantifierAt(source, i);
    if (q !== null) {
      const inner = closed;
      if (q.unbounded) {
        problems.push({ kind: 'unbounded', at: i, detail: `unbounded quantifier ${source.slice(i, i + q.length)}` });
        stack[stack.length - 1]!.hasUnbounded = true;
      }
      if (inner !== null && inner.hasUnbounded && q.repeats) {
        problems.push({
          kind: 'nested-unbounded',
          at: i,
          detail: `group at ${inner.start} holds an unbounded quantifier and is itself repeated by ${source.slice(i, i + q.length)}`,
        });
      }
      closed = null;
      i += q.length;
      continue;
    }
    closed = null;
    if (c === '\\') {
      i += 2;
    } else if (c === '[') {
      i = classEnd(source, i);
    } else if (c === '(') {
      stack.push({ start: i, hasUnbounded: false });
      i++;
    } else if (c === ')') {
      const group = stack.pop();
      if (group === undefined || stack.length === 0) {
        problems.push({ kind: 'unbounded', at: i, detail: 'unbalanced parenthesis' });
        return problems;
      }
      if (group.hasUnbounded) stack[stack.length - 1]!.hasUnbounded = true;
      closed = group;
      i++;
    } else {
      i++;
    }
  }
  return problems;
}
