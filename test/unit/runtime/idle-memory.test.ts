import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fullCollection, IdleReclaimer } from '../../../src/runtime/idle-memory.js';

/** The built module: the check runs in a plain Node process of its own (make test builds before it runs). */
const DIST_IDLE_MEMORY = fileURLToPath(new URL('../../../dist/runtime/idle-memory.js', import.meta.url));

/** A reclaimer on a hand-moved clock; its own timer is stopped at once, so only the test's tick() calls decide. */
function reclaimer(quietMs = 3_000): { r: IdleReclaimer; clock: { t: number }; collected: () => number } {
  const clock = { t: 0 };
  let n = 0;
  const r = new IdleReclaimer(
    () => n++,
    quietMs,
    () => clock.t,
  );
  r.close();
  return { r, clock, collected: () => n };
}

describe('IdleReclaimer', () => {
  it('collects once after a quiet spell that followed work, and not again until more work ran', () => {
    const { r, clock, collected } = reclaimer();
    expect(r.tick()).toBe(false); // nothing ran yet: a fresh process has nothing to give back
    r.inFlightChanged(1);
    clock.t = 10_000;
    expect(r.tick()).toBe(false); // a request in flight, however long ago it started
    r.inFlightChanged(0);
    clock.t = 12_999;
    expect(r.tick()).toBe(false); // quiet for less than 3 s
    clock.t = 13_000;
    expect(r.tick()).toBe(true);
    expect(collected()).toBe(1);
    clock.t = 60_000;
    expect(r.tick()).toBe(false);
    r.inFlightChanged(1);
    r.inFlightChanged(0);
    clock.t = 63_000;
    expect(r.tick()).toBe(true);
    expect(collected()).toBe(2);
  });

  it('does nothing where the runtime gives no collection', () => {
    const r = new IdleReclaimer(null, 3_000, () => 0);
    r.inFlightChanged(0);
    expect(r.tick()).toBe(false);
    r.close();
  });

  it('collects what nothing holds, and leaves no gc on the global object', async () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    let held: object | null = { big: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    held = null;
    // A WeakRef keeps its target until the current job ends.
    await new Promise((r) => setTimeout(r, 0));
    await gc?.();
    expect(ref.deref()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('keeps hot code optimized, where a collection forced through gc() deoptimizes it', () => {
    // In a process of its own, with V8's natives syntax to read a function's optimization state: a function optimized on
    // stream and hash objects stays optimized through the reclaimer's collection; gc(), the control, deoptimizes it (the
    // maps only its code referred to are dropped), so the check can tell the two apart.
    const script = `
      import { setFlagsFromString } from 'node:v8';
      import { runInNewContext } from 'node:vm';
      import { createHash } from 'node:crypto';
      import { Readable } from 'node:stream';
      const { fullCollection } = await import(${JSON.stringify(pathToFileURL(DIST_IDLE_MEMORY).href)});
      function work(i) {
        const r = new Readable({ read() {} });
        const chunks = [];
        r.on('data', (c) => chunks.push(c));
        r.push(Buffer.from('x' + i));
        r.push(null);
        return createHash('sha256').update(String(i)).digest('hex').length + chunks.length;
      }
      for (let i = 0; i < 100000; i++) {
        work(i);
        if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
      }
      const optimized = () => (%GetOptimizationStatus(work) & 16) !== 0;
      const states = [optimized()];
      await fullCollection()();
      states.push(optimized());
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc');
      setFlagsFromString('--no-expose-gc');
      gc();
      states.push(optimized());
      console.log(JSON.stringify(states));`;
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    // optimized before; still optimized after ours; deoptimized by gc(). No experimental-feature notice on stderr.
    expect(JSON.parse(run.stdout.trim())).toEqual([true, true, false]);
    expect(run.stderr).not.toMatch(/measureMemory|ExperimentalWarning/);
  });
});
