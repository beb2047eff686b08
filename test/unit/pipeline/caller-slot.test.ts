import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { GATEWAY_MESSAGES } from '../../../src/errors/messages.js';
import { releaseCallerSlot, renewCallerSlot, takeCallerSlot } from '../../../src/pipeline/caller-slot.js';
import type { CallerSlotRequest } from '../../../src/state/state.js';
import { governanceFixture, OTHER_TOKEN } from './support.js';

describe('takeCallerSlot', () => {
  it('takes a slot under the company cap and marks it held', async () => {
    const f = await governanceFixture({ settings: { callerCap: 1, queueWaitMs: 0 } });
    const ctx = f.context();
    await takeCallerSlot(f.deps, ctx, f.token, f.company);
    expect(ctx.slotHeld).toBe(true);
    // The one slot is taken: the same caller's next request waits out the queue and is refused.
    const error = await takeCallerSlot(f.deps, f.context(), f.token, f.company).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ fault: 'user_cap', message: GATEWAY_MESSAGES.callerCap(1, 0) });
    expect((error as GatewayError).headers).toEqual([
      ['retry-after', '1'],
      ['retry-after-ms', '0'],
    ]);
    // Another caller has a cap of its own.
    const other = f.context(OTHER_TOKEN);
    await takeCallerSlot(f.deps, other, other.token!, f.company);
    expect(other.slotHeld).toBe(true);
  });

  it("uses the token's override of the cap, the company's queue wait and the configured TTL", async () => {
    const seen: CallerSlotRequest[] = [];
    const f = await governanceFixture({
      settings: { callerCap: 1, queueWaitMs: 3000, capOverrides: { alice: 5 } },
      config: { slotTtlMs: 9000 },
      overrides: (memory) => ({ acquireCallerSlot: (request: CallerSlotRequest) => (seen.push(request), memory.acquireCallerSlot(request)) }),
    });
    const ctx = f.context();
    await takeCallerSlot(f.deps, ctx, f.token, f.company);
    expect(seen).toEqual([{ company: 'acme', tokenHash: f.token.hash, limit: 5, requestId: ctx.requestId, ttlMs: 9000, waitMs: 3000 }]);
  });

  it('gives the slot straight back when the request ended while it queued', async () => {
    const f = await governanceFixture({ settings: { callerCap: 1, queueWaitMs: 0 } });
    const ctx = f.context();
    ctx.finished = true;
    await expect(takeCallerSlot(f.deps, ctx, f.token, f.company)).rejects.toMatchObject({ fault: 'unavailable', message: GATEWAY_MESSAGES.endedBeforeAdmitted });
    expect(ctx.slotHeld).toBe(false);
    await expect.poll(() => f.calls).toContain('releaseCallerSlot');
    // The cap of one is free again.
    const next = f.context();
    await takeCallerSlot(f.deps, next, f.token, f.company);
    expect(next.slotHeld).toBe(true);
  });

  it('fails closed when the state cannot be reached', async () => {
    const f = await governanceFixture({ overrides: { acquireCallerSlot: () => Promise.reject(new Error('down')) } });
    await expect(takeCallerSlot(f.deps, f.context(), f.token, f.company)).rejects.toMatchObject({ fault: 'unavailable' });
    expect(f.events.stateErrors.map((e) => e.operation)).toEqual(['caller slot']);
  });
});

describe('renewCallerSlot and releaseCallerSlot', () => {
  it('touch only a held slot', async () => {
    const f = await governanceFixture({ settings: { callerCap: 1, queueWaitMs: 0 } });
    const ctx = f.context();
    renewCallerSlot(f.deps, ctx);
    expect(releaseCallerSlot(f.deps, ctx)).toBeNull();
    expect(f.calls).toEqual([]);
    await takeCallerSlot(f.deps, ctx, f.token, f.company);
    renewCallerSlot(f.deps, ctx);
    await releaseCallerSlot(f.deps, ctx);
    expect(f.calls).toEqual(['acquireCallerSlot', 'renewCallerSlot', 'releaseCallerSlot']);
    const next = f.context();
    await takeCallerSlot(f.deps, next, f.token, f.company);
    expect(next.slotHeld).toBe(true);
  });

  it('reports a failed renewal without throwing', async () => {
    const f = await governanceFixture({ overrides: { renewCallerSlot: () => Promise.reject(new Error('down')) } });
    const ctx = f.context();
    await takeCallerSlot(f.deps, ctx, f.token, f.company);
    renewCallerSlot(f.deps, ctx);
    await expect.poll(() => f.events.stateErrors.map((e) => e.operation)).toEqual(['slot renewal']);
  });
});
