// Several rules judge the same value: at one span `api_key=v` is tried by
// generic-api-key, credential-context and log-key-value, and each asks
// whether `v` looks like a key (placeholder words, code references, paths,
// identifiers, entropy: a dozen regex tests). A value repeated through a
// body (a secret pasted twice, or text built to make the scanner work, one
// accepted finding every 13 bytes) is judged again at every copy. The
// answers depend on the value alone, so each test remembers its last few.
//
// A few entries compared with `===`, not a Map: the rules that judge one
// span ask one after another, and hashing every new value (most values are
// judged once) cost more than it saved. The entries hold values of the
// text being scanned, so the engine empties them when a scan ends: no
// secret outlives the request.

const SLOTS = 4;

interface Memo {
  readonly values: (string | null)[];
  readonly answers: boolean[];
  next: number;
}

const memos: Memo[] = [];

/** Calls of memoized tests that were computed (not answered from a memo) since the process started. */
export const valueFactStats = { computed: 0 };

/** `test`, answered from memory for a value it judged recently in this scan. `test` must depend on the value alone. */
export function memoized(test: (value: string) => boolean): (value: string) => boolean {
  const memo: Memo = { values: new Array<string | null>(SLOTS).fill(null), answers: new Array<boolean>(SLOTS).fill(false), next: 0 };
  memos.push(memo);
  const { values, answers } = memo;
  return (value) => {
    for (let i = 0; i < SLOTS; i++) if (values[i] === value) return answers[i]!;
    valueFactStats.computed++;
    const answer = test(value);
    const slot = memo.next;
    values[slot] = value;
    answers[slot] = answer;
    memo.next = (slot + 1) % SLOTS;
    return answer;
  };
}

/** Forgets every value judged; the engine calls it when a scan ends. */
export function clearValueFacts(): void {
  for (const memo of memos) memo.values.fill(null);
}
