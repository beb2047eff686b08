import { describe, expect, it } from 'vitest';
import { MemoryState } from '../../../src/state/memory.js';

// The memory state skips its expiry sweep while no entry can have expired yet; these pin down that
// skipping never changes what counts as held (expiry, renewal moving an expiry later, release).
describe('MemoryState expiry of caller slots', () => {
  const slot = (requestId: string, ttlMs: number) => ({ company: 'acme', tokenHash: 'h', limit: 1, requestId, ttlMs, waitMs: 0 });

  it('frees a slot exactly when its TTL runs out, and not before', async () => {
    let now = 1_000;
    const state = new MemoryState(() => now);
    expect(await state.acquireCallerSlot(slot('a', 100))).toBe(true);
    now = 1_099;
    expect(await state.acquireCallerSlot(slot('b', 100))).toBe(false);
    now = 1_100;
    expect(await state.acquireCallerSlot(slot('b', 100))).toBe(true);
  });

  it('keeps a renewed slot past its first expiry, then frees it at the renewed one', async () => {
    let now = 1_000;
    const state = new MemoryState(() => now);
    expect(await state.acquireCallerSlot(slot('a', 100))).toBe(true);
    now = 1_050;
    await state.renewCallerSlot('acme', 'h', 'a', 100); // now expires at 1_150
    now = 1_120;
    expect(await state.acquireCallerSlot(slot('b', 100))).toBe(false);
    now = 1_149;
    expect(await state.acquireCallerSlot(slot('b', 100))).toBe(false);
    now = 1_150;
    expect(await state.acquireCallerSlot(slot('b', 100))).toBe(true);
  });

  it('sees an earlier-expiring entry added after a later one', async () => {
    let now = 1_000;
    const state = new MemoryState(() => now);
    const two = (requestId: string, ttlMs: number) => ({ ...slot(requestId, ttlMs), limit: 2 });
    expect(await state.acquireCallerSlot(two('long', 10_000))).toBe(true);
    expect(await state.acquireCallerSlot(two('short', 10))).toBe(true);
    expect(await state.acquireCallerSlot(two('third', 10))).toBe(false);
    now = 1_010;
    expect(await state.acquireCallerSlot(two('third', 10))).toBe(true);
  });

  it('frees a released slot at once', async () => {
    const state = new MemoryState(() => 5_000);
    expect(await state.acquireCallerSlot(slot('a', 60_000))).toBe(true);
    await state.releaseCallerSlot('acme', 'h', 'a');
    expect(await state.acquireCallerSlot(slot('b', 60_000))).toBe(true);
  });
});
