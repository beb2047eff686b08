import { describe, expect, it } from 'vitest';
import { SPEND_MESSAGES } from '../../../src/errors/messages.js';
import { MICROS } from '../../../src/governance/spend-admission.js';
import { emptyUsage } from '../../../src/metering/usage.js';
import { priceFromBase } from '../../../src/models/price.js';
import { reserveSpend, returnReservation, spendSettlement } from '../../../src/pipeline/spend-reservation.js';
import { usageRecord } from '../../support/usage-records.js';
import { governanceFixture, START } from './support.js';

/** $3 input, $15 output per million tokens. */
const PRICE = priceFromBase(3, 15);
const DAILY = { companyLimits: [{ window: 'daily' as const, usd: 1 }] };
/** 300 body bytes (100 input tokens) and 1000 output tokens: 300 + 15,000 micro-dollars. */
const WORST = 15_300;

describe('reserveSpend', () => {
  it('reserves nothing when the company sets no limits', async () => {
    const f = await governanceFixture();
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
    expect(ctx.spend).toBeNull();
    expect(f.calls).toEqual([]);
  });

  it("reserves the request's worst case under every limit", async () => {
    const f = await governanceFixture({ settings: DAILY });
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
    expect(ctx.spend?.reservedMicros).toBe(WORST);
    const counter = ctx.spend?.checks[0]?.counter ?? '';
    expect(await f.memory.spendOf('acme', counter)).toBe(WORST);
  });

  it('refuses with 402 over_budget and the real reset when the limit is spent', async () => {
    const f = await governanceFixture({ settings: { companyLimits: [{ window: 'daily', usd: 0.01 }] } });
    const ctx = f.context();
    const error = await reserveSpend(f.deps, ctx, PRICE, 300, 1000).catch((e: unknown) => e);
    const reset = Date.parse('2026-03-03T00:00:00Z');
    expect(error).toMatchObject({ fault: 'over_budget', headers: [['retry-after', String((reset - START) / 1000)]] });
    expect((error as Error).message).toBe(SPEND_MESSAGES.wouldPass('daily company spend limit of $0.01', '$0.00', '$0.02', new Date(reset).toISOString()));
    expect(ctx.spend).toBeNull();
  });

  it('lets an unpriced model through, or refuses it where the company says so', async () => {
    const open = await governanceFixture({ settings: DAILY });
    const ctx = open.context();
    await reserveSpend(open.deps, ctx, undefined, 300, 1000);
    expect(ctx.spend).toBeNull();
    const strict = await governanceFixture({ settings: { ...DAILY, refuseUnpriced: true } });
    await expect(reserveSpend(strict.deps, strict.context(), undefined, 300, 1000)).rejects.toMatchObject({ fault: 'model_not_allowed' });
  });

  it('fails closed when the ledger cannot be reached', async () => {
    const f = await governanceFixture({ settings: DAILY, overrides: { reserveSpend: () => Promise.reject(new Error('down')) } });
    await expect(reserveSpend(f.deps, f.context(), PRICE, 300, 1000)).rejects.toMatchObject({ fault: 'unavailable' });
    expect(f.events.stateErrors.map((e) => e.operation)).toEqual(['spend']);
  });
});

describe('returnReservation and spendSettlement', () => {
  it('gives the whole reservation back, once', async () => {
    const f = await governanceFixture({ settings: DAILY });
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
    const counter = ctx.spend?.checks[0]?.counter ?? '';
    await returnReservation(f.deps, ctx);
    await returnReservation(f.deps, ctx);
    expect(ctx.spend).toBeNull();
    expect(await f.memory.spendOf('acme', counter)).toBe(0);
  });

  it('replaces the reservation with the metered cost', async () => {
    const f = await governanceFixture({ settings: DAILY });
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
    ctx.model = { price: PRICE } as NonNullable<typeof ctx.model>;
    ctx.usage = { ...emptyUsage(), input_tokens: 1000, output_tokens: 100 };
    const counter = ctx.spend?.checks[0]?.counter ?? '';
    const settlement = spendSettlement(ctx);
    expect(ctx.spend).toBeNull();
    // 1000 × $3/M + 100 × $15/M = $0.0045.
    expect(settlement?.actualMicros).toBe(Math.round(0.0045 * MICROS));
    expect(spendSettlement(ctx)).toBeUndefined();
    // The record's write settles it, once however often it is written.
    const record = usageRecord('acme', 1, { request_id: ctx.requestId });
    await f.memory.recordUsage(record, settlement);
    await f.memory.recordUsage(record, settlement);
    expect(await f.memory.spendOf('acme', counter)).toBe(Math.round(0.0045 * MICROS));
  });

  it('settles at zero when nothing was metered', async () => {
    const f = await governanceFixture({ settings: DAILY });
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
    const counter = ctx.spend?.checks[0]?.counter ?? '';
    await f.memory.recordUsage(usageRecord('acme', 1, { request_id: ctx.requestId }), spendSettlement(ctx));
    expect(await f.memory.spendOf('acme', counter)).toBe(0);
  });

  it('reports a failed return instead of throwing', async () => {
    const f = await governanceFixture({ settings: DAILY, overrides: (memory) => ({ reserveSpend: memory.reserveSpend.bind(memory), releaseReservation: () => Promise.reject(new Error('down')) }) });
    const ctx = f.context();
    await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
    await returnReservation(f.deps, ctx);
    expect(f.events.stateErrors.map((e) => e.operation)).toEqual(['spend']);
  });

  it('records how far a settlement pushed a counter past its limit, only what it added', async () => {
    const overshoots: number[] = [];
    const f = await governanceFixture({ settings: { companyLimits: [{ window: 'daily', usd: 0.05 }] }, memory: { onSpendOvershoot: (_c, micros) => overshoots.push(micros) } });
    const settleAt = async (actualMicros: number): Promise<void> => {
      const ctx = f.context();
      await reserveSpend(f.deps, ctx, PRICE, 300, 1000);
      const settlement = spendSettlement(ctx);
      await f.memory.recordUsage(usageRecord('acme', 1, { request_id: ctx.requestId }), settlement && { ...settlement, actualMicros });
    };
    await settleAt(15_000);
    expect(overshoots).toEqual([]);
    // 15,000 settled, then 40,000 metered where 15,300 was reserved: 5,000 past the $0.05 limit.
    await settleAt(40_000);
    expect(overshoots).toEqual([5_000]);
  });
});
