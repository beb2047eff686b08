// One pass over the text finds every occurrence of every rule keyword
// (ASCII, case-insensitive, overlapping). It is an Aho-Corasick automaton
// compiled to a dense DFA over a small alphabet: the characters that occur in
// some keyword get a class each (upper and lower case share one), everything
// else is class 0. A scanned character then costs one table lookup, which is
// what lets rules run only near their keywords instead of over the whole body.

export type KeywordHitHandler = (keyword: number, start: number) => void;

export class KeywordIndex {
  readonly keywords: readonly string[];
  private readonly classOf: Uint8Array;
  private readonly delta: Int32Array;
  private readonly width: number;
  private readonly outStart: Int32Array;
  private readonly outEnd: Int32Array;
  private readonly outList: Int32Array;
  private readonly lengths: Int32Array;

  constructor(keywords: readonly string[]) {
    const lowered = keywords.map((k) => k.toLowerCase());
    for (const k of lowered) {
      if (k.length === 0 || !/^[\x20-\x7e]+$/.test(k)) {
        throw new Error(`keyword must be non-empty printable ASCII: ${JSON.stringify(k)}`);
      }
    }
    this.keywords = lowered;
    this.lengths = Int32Array.from(lowered, (k) => k.length);

    const classOf = new Uint8Array(256);
    let width = 1;
    for (const k of lowered) {
      for (let i = 0; i < k.length; i++) {
        const c = k.charCodeAt(i);
        if (classOf[c] === 0) {
          classOf[c] = width;
          const upper = String.fromCharCode(c).toUpperCase().charCodeAt(0);
          if (upper !== c && upper < 128) classOf[upper] = width;
          width++;
        }
      }
    }
    if (width > 255) throw new Error('keyword alphabet too large');
    this.classOf = classOf;

    // Trie.
    const goto: Int32Array[] = [new Int32Array(width).fill(-1)];
    const outputs: number[][] = [[]];
    lowered.forEach((k, id) => {
      let s = 0;
      for (let i = 0; i < k.length; i++) {
        const cls = classOf[k.charCodeAt(i)]!;
        let next = goto[s]![cls]!;
        if (next === -1) {
          next = goto.length;
          goto.push(new Int32Array(width).fill(-1));
          outputs.push([]);
          goto[s]![cls] = next;
        }
        s = next;
      }
      outputs[s]!.push(id);
    });

    // Failure links folded into a complete transition table, breadth first.
    const states = goto.length;
    const delta = new Int32Array(states * width);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let cls = 0; cls < width; cls++) {
      const v = goto[0]![cls]!;
      if (v === -1) delta[cls] = 0;
      else {
        delta[cls] = v;
        fail[v] = 0;
        queue.push(v);
      }
    }
    // Class 0 never starts a keyword, so the root loops on it.
    for (let head = 0; head < queue.length; head++) {
      const u = queue[head]!;
      for (let cls = 0; cls < width; cls++) {
        const v = goto[u]![cls]!;
        if (v === -1) {
          delta[u * width + cls] = delta[fail[u]! * width + cls]!;
        } else {
          const f = delta[fail[u]! * width + cls]!;
          fail[v] = f;
          for (const o of outputs[f]!) outputs[v]!.push(o);
          delta[u * width + cls] = v;
          queue.push(v);
        }
      }
    }
    // Entries hold the target state premultiplied by the width, so a step is
    // one add and one load; a target that reports keywords is stored as its
    // complement (negative), so the common step needs no second load.
    const table = new Int32Array(states * width);
    for (let k = 0; k < delta.length; k++) {
      const target = delta[k]!;
      table[k] = outputs[target]!.length > 0 ? ~(target * width) : target * width;
    }
    this.delta = table;
    this.width = width;

    const outStart = new Int32Array(states);
    const outEnd = new Int32Array(states);
    const flat: number[] = [];
    for (let s = 0; s < states; s++) {
      outStart[s] = flat.length;
      for (const o of outputs[s]!) flat.push(o);
      outEnd[s] = flat.length;
    }
    this.outStart = outStart;
    this.outEnd = outEnd;
    this.outList = Int32Array.from(flat);
  }

  /**
   * Reports each keyword occurrence in bytes[from, to) as (keyword id,
   * start - base). The bytes are a text's characters read as latin1 (a
   * character above 255, only from a \u escape, as its low byte: that can
   * add a hit the rule then rejects, never hide one, since keywords are
   * ASCII). A byte array rather than the string because a typed-array load
   * is cheaper than charCodeAt, more so on sliced and concatenated strings.
   * Hits are reported in order of their end position. Returns the automaton
   * state, so that a long text can be scanned in chunks by passing it back in.
   */
  scan(bytes: Uint8Array, from: number, to: number, onHit: KeywordHitHandler, state = 0, base = 0): number {
    const { classOf, delta, width, outStart, outEnd, outList, lengths } = this;
    let s = state * width;
    const shift = 1 - base;
    for (let i = from; i < to; i++) {
      const next = delta[s + classOf[bytes[i]!]!]!;
      if (next >= 0) {
        s = next;
        continue;
      }
      s = ~next;
      const q = s / width;
      const oEnd = outEnd[q]!;
      for (let j = outStart[q]!; j < oEnd; j++) {
        const kw = outList[j]!;
        onHit(kw, i + shift - lengths[kw]!);
      }
    }
    return s / width;
  }
}
