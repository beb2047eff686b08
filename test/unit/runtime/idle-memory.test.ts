import { describe, expect, it } from 'vitest';
import { fullCollection, IdleReclaimer } from '../../../src/runtime/idle-memory.js';

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

  it('obtains V8 full collection without --expose-gc, and leaves no gc on the global object', async () => {
    const gc = fullCollection();
    expect(typeof gc).toBe('function');
    // A collection frees what nothing holds: a weakly held object is gone after it.
    let held: object | null = { big: new Array(1000).fill('x') };
    const ref = new WeakRef(held);
    held = null;
    // A WeakRef keeps its target until the current job ends.
    await new Promise((r) => setTimeout(r, 0));
    gc?.();
    expect(ref.deref()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
