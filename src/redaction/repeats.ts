// Every copy of a found secret goes, not only the one a rule matched: a
// prompt often carries the same key twice (a config file and the command
// that uses it, or a tool input and its echo in a tool result), and only the
// first may sit next to the keyword or name a rule needs. After the rules
// have run, the body is searched once more for the exact values found, in
// each spelling they can have in the raw bytes (as decoded, JSON-escaped
// once or twice, with `/` escaped). The search is one pass over the body,
// so it costs about the same for one secret as for a thousand.
import type { Span } from './splice.js';

// Shorter values (a 4-character PIN) would also hit unrelated text.
export const MIN_REPEAT_LENGTH = 6;

interface Needle {
  readonly bytes: Buffer;
  readonly rule: number;
  /** Where the needle's last occurrence ends: copies of it overlapping that one are not looked for. */
  next: number;
}

/** A value found by a rule, in each spelling a copy of it can have. */
export interface FoundValue {
  readonly spellings: readonly Buffer[];
  readonly rule: number;
  /** Its one spelling is printable ASCII with no `"`, `\` or `/`: valid JSON string content as it is. */
  readonly plain?: boolean;
}

/** The spellings a decoded secret can have in a raw JSON body or text. */
export function spellings(decoded: string, raw: Buffer): Buffer[] {
  const once = JSON.stringify(decoded).slice(1, -1);
  const forms = new Set<string>([decoded, once, JSON.stringify(once).slice(1, -1)]);
  if (decoded.includes('/')) forms.add(once.replace(/\//g, '\\/'));
  const out = [raw];
  for (const f of forms) {
    const b = Buffer.from(f, 'utf8');
    if (!b.equals(raw)) out.push(b);
  }
  return out;
}

/** The first four bytes of a needle (or of the input at `at`) as one number. */
function head(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

interface Group {
  /** Needles too short to have a second key, or all of a small group. */
  readonly list: Needle[];
  /** Offset of the second key: where the group's needles start to differ. */
  offset: number;
  byKey: Map<number, Needle[]> | null;
}

// Past this many needles with the same first four bytes (`ghp_`, `eyJh`,
// `sk-a`), a group is split on four bytes where its needles differ, so that
// a position costs about the same however many secrets share a prefix.
const SPLIT = 4;

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

function split(group: Group): void {
  const all = group.list;
  let offset = all[0]!.bytes.length;
  for (let k = 1; k < all.length; k++) offset = Math.min(offset, commonPrefix(all[0]!.bytes, all[k]!.bytes));
  const byKey = new Map<number, Needle[]>();
  const rest: Needle[] = [];
  for (const needle of all) {
    if (needle.bytes.length < offset + 4) rest.push(needle);
    else {
      const key = head(needle.bytes, offset);
      const list = byKey.get(key);
      if (list === undefined) byKey.set(key, [needle]);
      else list.push(needle);
    }
  }
  group.offset = offset;
  group.byKey = byKey;
  group.list.length = 0;
  group.list.push(...rest);
}

/**
 * Appends a span for every occurrence in `input` of any of the (secret,
 * rule) pairs. In a JSON body an occurrence must not start just after a
 * lone backslash, where it would cut an escape in two. One pass: a table of
 * the needles' first two bytes rejects almost every position with one load;
 * the rest look up their first four bytes, and in a large group four more.
 */
export function findRepeats(input: Uint8Array, secrets: readonly FoundValue[], json: boolean, out: Span[]): number {
  const groups = new Map<number, Group>();
  const pairs = new Uint8Array(1 << 16);
  for (const s of secrets) {
    for (const bytes of s.spellings) {
      if (bytes.length < MIN_REPEAT_LENGTH || (json && s.plain !== true && !validStringContent(bytes))) continue;
      pairs[(bytes[0]! << 8) | bytes[1]!] = 1;
      const key = head(bytes, 0);
      const group = groups.get(key);
      const needle = { bytes, rule: s.rule, next: 0 };
      if (group === undefined) groups.set(key, { list: [needle], offset: 0, byKey: null });
      else if (!group.list.some((n) => n.bytes.equals(bytes))) group.list.push(needle);
    }
  }
  if (groups.size === 0) return 0;
  for (const group of groups.values()) if (group.list.length > SPLIT) split(group);
  const n = input.length;
  let work = n;
  const last = n - MIN_REPEAT_LENGTH;
  const check = (list: readonly Needle[], i: number): void => {
    for (const needle of list) {
      // Inside the needle's last occurrence the text is already covered, and
      // in text that repeats one found value (`-password=` over and over) a
      // self-overlapping copy would start every few bytes, each compared in
      // full: quadratic in the length of that value.
      if (i < needle.next) continue;
      const len = needle.bytes.length;
      work += len;
      if (i + len > n || !matches(input, i, needle.bytes)) continue;
      if (json && oddBackslashesBefore(input, i)) continue;
      out.push({ start: i, end: i + len, rule: needle.rule });
      needle.next = i + len;
    }
  };
  for (let i = 0; i <= last; i++) {
    if (pairs[(input[i]! << 8) | input[i + 1]!] === 0) continue;
    const group = groups.get(head(input, i));
    if (group === undefined) continue;
    check(group.list, i);
    if (group.byKey !== null && i + group.offset + 4 <= n) {
      const list = group.byKey.get(head(input, i + group.offset));
      if (list !== undefined) check(list, i);
    }
  }
  return work;
}

// In a JSON body only a spelling that is whole string content (no bare
// quote, no escape cut at either end) can be replaced without breaking it.
function validStringContent(bytes: Buffer): boolean {
  try {
    JSON.parse(`"${bytes.toString('utf8')}"`);
    return true;
  } catch {
    return false;
  }
}

function matches(input: Uint8Array, at: number, needle: Buffer): boolean {
  for (let k = needle.length - 1; k >= 0; k--) if (input[at + k] !== needle[k]) return false;
  return true;
}

function oddBackslashesBefore(input: Uint8Array, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && input[k] === 0x5c) k--;
  return (at - 1 - k) % 2 === 1;
}
