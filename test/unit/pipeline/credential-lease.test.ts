import { describe, expect, it } from 'vitest';
import { CREDENTIAL_MESSAGES, GATEWAY_MESSAGES } from '../../../src/errors/messages.js';
import { priceFromBase } from '../../../src/models/price.js';
import { ServedModels } from '../../../src/models/served-models.js';
import { releaseLease, renewLease, takeLease } from '../../../src/pipeline/credential-lease.js';
import { reserveSpend } from '../../../src/pipeline/spend-reservation.js';
import { authorizeModel, type ModelDecision } from '../../../src/policy/authorize-model.js';
import type { LeaseRequest } from '../../../src/state/state.js';
import { governanceFixture, type GovernanceFixture } from './support.js';

async function decide(f: GovernanceFixture): Promise<ModelDecision> {
  return authorizeModel('claude-haiku-4-5', f.company, new ServedModels(async () => null));
}

describe('takeLease', () => {
  it('leases a candidate credential, sticky per caller and session', async () => {
    const seen: LeaseRequest[] = [];
    const f = await governanceFixture({ config: { leaseTtlMs: 7000 }, overrides: (memory) => ({ acquireLease: (r: LeaseRequest) => (seen.push(r), memory.acquireLease(r)) }) });
    const ctx = f.context();
    const decision = await decide(f);
    const lease = await takeLease(f.deps, ctx, f.company, decision, 's-1');
    expect(lease.credential.name).toBe('key');
    expect(ctx.lease).toBe(lease);
    expect(f.events.leases).toEqual([{ credential: 'key', delta: 1 }]);
    expect(seen).toEqual([{ company: 'acme', candidates: decision.candidates, session: 'alice\u0000s-1', requestId: ctx.requestId, ttlMs: 7000 }]);
    await takeLease(f.deps, f.context(), f.company, decision, null);
    expect(seen[1]?.session).toBeNull();
  });

  it('answers busy credentials with a retryable 503 no_capacity and returns the spend reservation', async () => {
    const f = await governanceFixture({
      settings: { companyLimits: [{ window: 'daily', usd: 1 }] },
      overrides: (memory) => ({ reserveSpend: memory.reserveSpend.bind(memory), acquireLease: () => Promise.resolve({ ok: false, reason: 'busy' }) }),
    });
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, priceFromBase(3, 15), 300, 1000);
    const counter = ctx.spend?.checks[0]?.counter ?? '';
    const error = await takeLease(f.deps, ctx, f.company, await decide(f), null).catch((e: unknown) => e);
    expect(error).toMatchObject({ fault: 'no_capacity', message: CREDENTIAL_MESSAGES.busy('vendor'), headers: [] });
    expect(ctx.spend).toBeNull();
    expect(await f.memory.spendOf('acme', counter)).toBe(0);
    expect(ctx.lease).toBeNull();
  });

  it('has rejected keys re-checked and says a retry does not help', async () => {
    const f = await governanceFixture({ overrides: { acquireLease: () => Promise.resolve({ ok: false, reason: 'rejected', credentials: ['key'] }) } });
    const error = await takeLease(f.deps, f.context(), f.company, await decide(f), null).catch((e: unknown) => e);
    expect(error).toMatchObject({ fault: 'no_capacity', message: CREDENTIAL_MESSAGES.rejected('vendor', ['key']), headers: [['x-should-retry', 'false']] });
    expect(f.health.rejected).toEqual([['key']]);
  });

  it('names the earliest reset when every seat window is exhausted', async () => {
    const reset = Date.parse('2026-03-02T15:00:00Z');
    const f = await governanceFixture({ overrides: { acquireLease: () => Promise.resolve({ ok: false, reason: 'exhausted', earliestReset: reset }) } });
    const error = await takeLease(f.deps, f.context(), f.company, await decide(f), null).catch((e: unknown) => e);
    expect(error).toMatchObject({ fault: 'no_capacity', message: CREDENTIAL_MESSAGES.exhausted('vendor', '2026-03-02T15:00:00.000Z'), headers: [['x-should-retry', 'false']] });
    expect(f.health.rejected).toEqual([]);
  });

  it('gives the lease straight back when the request ended meanwhile', async () => {
    const f = await governanceFixture();
    const ctx = f.context();
    ctx.finished = true;
    await expect(takeLease(f.deps, ctx, f.company, await decide(f), null)).rejects.toMatchObject({ fault: 'unavailable', message: GATEWAY_MESSAGES.endedBeforeForwarded });
    expect(ctx.lease).toBeNull();
    expect(f.events.leases).toEqual([]);
    await expect.poll(() => f.calls).toContain('releaseLease');
  });

  it('fails closed when the state cannot be reached', async () => {
    const f = await governanceFixture({ overrides: { acquireLease: () => Promise.reject(new Error('down')) } });
    await expect(takeLease(f.deps, f.context(), f.company, await decide(f), null)).rejects.toMatchObject({ fault: 'unavailable' });
    expect(f.events.stateErrors.map((e) => e.operation)).toEqual(['lease']);
  });
});

describe('renewLease and releaseLease', () => {
  it('touch only a held lease, and the release is counted', async () => {
    const f = await governanceFixture();
    const ctx = f.context();
    renewLease(f.deps, ctx);
    expect(releaseLease(f.deps, ctx)).toBeNull();
    await takeLease(f.deps, ctx, f.company, await decide(f), null);
    renewLease(f.deps, ctx);
    await releaseLease(f.deps, ctx);
    expect(f.calls).toEqual(['acquireLease', 'renewLease', 'releaseLease']);
    expect(f.events.leases).toEqual([
      { credential: 'key', delta: 1 },
      { credential: 'key', delta: -1 },
    ]);
  });
});
