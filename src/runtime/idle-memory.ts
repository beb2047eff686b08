import { setFlagsFromString } from 'node:v8';
import { measureMemory } from 'node:vm';

/**
 * Gives the heap's free pages back once a process has gone quiet. V8 grows
 * its heap for a burst of requests and keeps it: measured, gw serve after
 * 3,000 requests held old space at 50 MB with 17.5 MB live, and V8's own
 * memory reducer shrank it only about 20 s after the last request. One
 * compacting full collection when nothing has been in flight for `quietMs`
 * (and something ran since the last one) returns it, at most once per quiet
 * spell.
 *
 * How it is started matters more than when. A collection forced through
 * `gc()` (and V8's own memory-reducing ones) drops the maps that only
 * optimized code still refers to, so it deoptimized 88–102 hot functions, the
 * gateway's and Node's stream and HTTP code alike, and the next burst ran
 * interpreted while they were optimized again (docs/benchmarks.md). The
 * collection V8 runs to measure memory keeps them like any ordinary one: no
 * function deoptimized (measured with --trace-deopt), so the quiet time can
 * be short. V8's memory reducer would still deoptimize them a few seconds
 * later (88 functions in gw serve about 20 s after a load), and only a
 * command-line flag turns it off: the image starts node with
 * --no-memory-reducer (Dockerfile), which leaves this the only collection
 * that shrinks an idle heap.
 */
export class IdleReclaimer {
  private inFlight = 0;
  private quietSince = 0;
  /** Work ran since the last collection (a quiet process is not collected again and again). */
  private worked = false;
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    private readonly collect: (() => unknown) | null,
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
 * One full, compacting collection, started as V8's memory measurement starts
 * it (see IdleReclaimer for why not through `gc()`). Resolves when it is
 * done; never rejects. Null where the runtime has no memory measurement (the
 * reclaimer then does nothing).
 */
export function fullCollection(): (() => Promise<void>) | null {
  if (typeof measureMemory !== 'function') return null;
  return async () => {
    // A full collection frees objects but moves few: after 500 concurrent streams a plain one left old space at 60 MB with
    // 21 MB in use, and pages left partly used are not given back. Compacting every fragmented page (what V8's memory
    // reducer does) brought it to 22 MB. The flag is read as the collection starts, so it is on for this one only.
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      await measureQuietly();
    } catch {
      // Nothing given back this time; the next quiet spell tries again.
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

/**
 * Node 20 marks vm.measureMemory experimental and says so on stderr at its first call, which an operator would read as a
 * fault. The notice is emitted synchronously inside the call, so only that one is held back, and only during it.
 */
function measureQuietly(): Promise<unknown> {
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.includes('vm.measureMemory')) return;
    (emit as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return measureMemory({ mode: 'summary', execution: 'eager' });
  } finally {
    process.emitWarning = emit;
  }
}
