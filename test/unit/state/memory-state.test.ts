import { describe, expect, it } from 'vitest';
import { MemoryState } from '../../../src/state/memory.js';
import { approximateBytes } from '../../../src/state/usage-buffer.js';
import type { UsageRecord } from '../../../src/metering/usage-record.js';

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

describe('MemoryState usage records', () => {
  const record = (i: number): UsageRecord => ({
    request_id: `r${i}`,
    time: new Date(1_760_000_000_000 + i).toISOString(),
    company: 'acme',
    address: 'bench@acme.example',
    endpoint: 'messages',
    model: 'claude-sonnet-4-5-20250929',
    provider: 'vendor',
    provider_model: 'claude-sonnet-4-5-20250929',
    credential: 'vendor-main',
    input_tokens: 1,
    output_tokens: 1,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cost_usd: 0,
    status: 200,
    fault: null,
    stream: false,
    duration_ms: 1,
    ttfb_ms: null,
    outcome: 'complete',
  });

  it('keeps the newest records within its global byte bound, drops the oldest, and forgets dropped ids', async () => {
    const bytes = approximateBytes(record(0));
    // Room for about 1,000 records of this size (the ids' digits vary by a byte or two).
    const state = new MemoryState({ now: () => 0, usageMemoryBytes: bytes * 1_000 });
    for (let i = 0; i < 5_000; i++) await state.recordUsage(record(i));
    const kept = await state.queryLogs({ company: 'acme', limit: 200_000 });
    expect(kept.length).toBeGreaterThan(950);
    expect(kept.length).toBeLessThanOrEqual(1_000);
    expect(kept[0]?.request_id).toBe('r4999');
    expect(kept.at(-1)?.request_id).toBe(`r${5_000 - kept.length}`);
    expect(await state.usageDropped('acme')).toBe(5_000 - kept.length);
    // A dropped id is new again; a kept one is still a duplicate.
    await state.recordUsage(record(5));
    await state.recordUsage(record(4_999));
    const after = await state.queryLogs({ company: 'acme', limit: 200_000 });
    expect(after.some((r) => r.request_id === 'r5')).toBe(true);
    expect(after.filter((r) => r.request_id === 'r4999')).toHaveLength(1);
  });
});
