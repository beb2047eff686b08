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

/** Quantifier at `source[i]`, or null: its length and whether its maximum is unbounded or above one. */
function quantifierAt(source: string, i: number): { length: number; unbounded: boolean; repeats: boolean } | null {
  const c = source[i];
  let length = 0;
  let unbounded = false;
  let repeats = false;
  if (c === '*' || c === '+') {
    length = 1;
    unbounded = true;
    repeats = true;
  } else if (c === '?') {
    length = 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
    if (m === null) return null; // a literal brace
    length = m[0].length;
    if (m[2] === undefined) repeats = Number(m[1]) > 1;
    else if (m[3] === '') {
      unbounded = true;
      repeats = true;
    } else repeats = Number(m[3]) > 1;
  } else return null;
  if (source[i + length] === '?') length++; // lazy
  return { length, unbounded, repeats };
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
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
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
