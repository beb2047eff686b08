import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServedModels } from '../../../src/models/served-models.js';
import { priceFromBase } from '../../../src/models/price.js';
import { takeCallerSlot } from '../../../src/pipeline/caller-slot.js';
import { takeLease } from '../../../src/pipeline/credential-lease.js';
import { keepHeld, releaseHoldings } from '../../../src/pipeline/holdings.js';
import { reserveSpend } from '../../../src/pipeline/spend-reservation.js';
import { authorizeModel } from '../../../src/policy/authorize-model.js';
import { governanceFixture, type GovernanceFixture } from './support.js';
import type { RequestContext } from '../../../src/pipeline/context.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A request holding a slot, a spend reservation and a lease. */
async function holding(f: GovernanceFixture): Promise<RequestContext> {
  const ctx = f.context();
  await takeCallerSlot(f.deps, ctx, f.token, f.company);
  await reserveSpend(f.deps, ctx, priceFromBase(3, 15), 300, 1000);
  await takeLease(f.deps, ctx, f.company, await authorizeModel('claude-haiku-4-5', f.company, new ServedModels(async () => null)), null);
  return ctx;
}

const LIMITS = { companyLimits: [{ window: 'daily' as const, usd: 1 }], callerCap: 1, queueWaitMs: 0 };

describe('keepHeld', () => {
  it('renews the slot and the lease a third of the way into the shorter TTL, until released', async () => {
    const f = await governanceFixture({ settings: LIMITS, config: { slotTtlMs: 30_000, leaseTtlMs: 60_000 } });
    const ctx = await holding(f);
    f.calls.length = 0;
    vi.useFakeTimers();
    keepHeld(f.deps, ctx);
    vi.advanceTimersByTime(9_999);
    expect(f.calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(f.calls).toEqual(['renewCallerSlot', 'renewLease']);
    vi.advanceTimersByTime(10_000);
    expect(f.calls).toEqual(['renewCallerSlot', 'renewLease', 'renewCallerSlot', 'renewLease']);
    const released = releaseHoldings(f.deps, ctx);
    vi.advanceTimersByTime(30_000);
    expect(f.calls.filter((c) => c.startsWith('renew'))).toHaveLength(4);
    vi.useRealTimers();
    await released;
    expect(ctx.renewal).toBeNull();
  });
});

describe('releaseHoldings', () => {
  it('gives back the lease and the slot, and leaves the spend to the usage record', async () => {
    const f = await governanceFixture({ settings: LIMITS });
    const ctx = await holding(f);
    const counter = ctx.spend?.checks[0]?.counter ?? '';
    const reserved = ctx.spend?.reservedMicros;
    await releaseHoldings(f.deps, ctx);
    expect(f.calls.slice(-2).sort()).toEqual(['releaseCallerSlot', 'releaseLease']);
    expect(f.events.leases.at(-1)).toEqual({ credential: 'key', delta: -1 });
    // Settled only by the record's write (spend-reservation.test.ts), so that a restored record restores its spend.
    expect(ctx.spend).not.toBeNull();
    expect(await f.memory.spendOf('acme', counter)).toBe(reserved);
    // The cap of one is free again.
    const next = f.context();
    await takeCallerSlot(f.deps, next, f.token, f.company);
    expect(next.slotHeld).toBe(true);
  });

  it('reports each failed release and still makes the others', async () => {
    const f = await governanceFixture({
      settings: LIMITS,
      overrides: { releaseLease: () => Promise.reject(new Error('lease store down')), releaseCallerSlot: () => Promise.reject(new Error('slot store down')) },
    });
    const ctx = await holding(f);
    await releaseHoldings(f.deps, ctx);
    expect(f.events.stateErrors.map((e) => [e.operation, (e.error as Error).message])).toEqual([
      ['release', 'lease store down'],
      ['release', 'slot store down'],
    ]);
    expect(f.calls).toEqual(expect.arrayContaining(['releaseLease', 'releaseCallerSlot']));
  });

  it('releases nothing a request does not hold', async () => {
    const f = await governanceFixture();
    await releaseHoldings(f.deps, f.context());
    expect(f.calls).toEqual([]);
    expect(f.events.stateErrors).toEqual([]);
  });
});
