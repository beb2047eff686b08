/**
 * Ready-made ChunkSplitters. Envoy hands the filter whatever the network and
 * codec produced, so a processor must cope with SSE events cut anywhere and
 * with several events in one chunk (reference §2.3).
 */
import type { ChunkSplitter } from './options.js';

/** Pieces of at most `size` bytes. */
export function splitEvery(size: number): ChunkSplitter {
  if (size < 1) throw new Error('splitEvery needs a size of at least 1');
  return (data) => {
    const out: Buffer[] = [];
    for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
    return out;
  };
}

/** Pieces of pseudo-random sizes in [1, maxSize], the same for the same seed. */
export function splitSeeded(seed: number, maxSize: number): ChunkSplitter {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    // xorshift32: reproducible cuts, so a failing split can be replayed.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  return (data) => {
    const out: Buffer[] = [];
    let i = 0;
    while (i < data.length) {
      const size = 1 + (next() % maxSize);
      out.push(data.subarray(i, i + size));
      i += size;
    }
    return out;
  };
}
