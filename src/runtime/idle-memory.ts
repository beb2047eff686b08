import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives the heap's free pages back once a process has gone quiet. V8 grows
 * its heap for a burst of requests and, in a server that never sits idle in
 * V8's sense, keeps it: measured, gw serve after 3,000 requests held a 50 MB
 * heap with 23 MB in use, 30 s after the last request. One full collection
 * when nothing has been in flight for `quietMs` (and something ran since the
 * last one) returns it, at most once per quiet spell.
 *
 * Its cost is not the collection's 100–250 ms but what follows: a forced
 * collection does not keep the maps only optimized code still refers to (V8
 * retains them through ordinary collections), so it deoptimizes most hot
 * functions, the gateway's and Node's stream and HTTP code alike (measured
 * with --trace-deopt: 44–70 functions "weak objects" per collection, none in
 * the ordinary collections between). The next burst runs interpreted while
 * they are optimized again: gw serve took 3.0 ms of CPU per stream instead of
 * 1.3–1.9 in bursts of 32 streams 8 s apart with a 3 s quiet time
 * (docs/benchmarks.md). Hence a quiet time long enough that the re-warming is
 * small beside the idle time it follows.
 */
export class IdleReclaimer {
  private inFlight = 0;
  private quietSince = 0;
  /** Work ran since the last collection (a quiet process is not collected again and again). */
  private worked = false;
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    private readonly collect: (() => void) | null,
    private readonly quietMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    // Ticks at most a second apart, so a collection follows the quiet time by at most a second.
    this.timer = collect === null || quietMs <= 0 ? null : setInterval(() => this.tick(), Math.min(quietMs, 1_000)).unref();
  }

  /** The number of requests in flight changed. */
  inFlightChanged(n: number): void {
    this.inFlight = n;
    this.worked = true;
    if (n === 0) this.quietSince = this.now();
  }

  /** Collects if the process has been quiet long enough since it last worked; true when it did. */
  tick(): boolean {
    if (this.collect === null || !this.worked || this.inFlight > 0 || this.now() - this.quietSince < this.quietMs) return false;
    this.worked = false;
    this.collect();
    return true;
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}

/**
 * V8's own full collection, without starting the process with --expose-gc:
 * the flag is on only while a fresh context picks the function up. Null where
 * the runtime refuses (the reclaimer then does nothing).
 */
export function fullCollection(): (() => void) | null {
  const exposed = (globalThis as { gc?: unknown }).gc;
  let gc: unknown = typeof exposed === 'function' ? exposed : null;
  if (gc === null) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc');
    } catch {
      return null;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (typeof gc !== 'function') return null;
  const collect = gc as () => void;
  return () => {
    // A plain full collection frees objects but moves few: after 500 concurrent streams it left old space at 60 MB with
    // 21 MB in use. Compacting every fragmented page (what V8's own memory reducer does) brought it to 22 MB. The flag is
    // read when a collection starts, so it is on for this one only.
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      collect();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}
