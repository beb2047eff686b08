import type { SpendCheck, SpendLedger, SpendOutcome, SpendSettlement } from '../state.js';

/** Counters of settled spend plus reservations, and each request's reservation, as the Redis ledger keeps them. */
export class MemorySpendLedger implements SpendLedger {
  private readonly spend = new Map<string, number>();
  private readonly reserved = new Map<string, number>();

  async reserveSpend(company: string, requestId: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    if (checks.length === 0) return { ok: true };
    for (const check of checks) {
      if ((this.spend.get(`${company}\u0000${check.counter}`) ?? 0) + amountMicros > check.limitMicros) return { ok: false, failed: check };
    }
    this.add(company, checks, amountMicros);
    this.reserved.set(`${company}\u0000${requestId}`, amountMicros);
    return { ok: true };
  }

  async releaseReservation(company: string, requestId: string, checks: readonly SpendCheck[]): Promise<void> {
    const key = `${company}\u0000${requestId}`;
    const amount = this.reserved.get(key);
    if (amount === undefined) return;
    this.reserved.delete(key);
    this.add(company, checks, -amount);
  }

  /** Replaces the request's reservation (if held) by its metered cost; returns how far a counter went further past its limit. */
  settle(company: string, requestId: string, settlement: SpendSettlement): number {
    const key = `${company}\u0000${requestId}`;
    const delta = Math.round(settlement.actualMicros) - (this.reserved.get(key) ?? 0);
    this.reserved.delete(key);
    let overshoot = 0;
    for (const check of settlement.checks) {
      const counter = `${company}\u0000${check.counter}`;
      const before = this.spend.get(counter) ?? 0;
      this.spend.set(counter, before + delta);
      overshoot = Math.max(overshoot, Math.max(0, before + delta - check.limitMicros) - Math.max(0, before - check.limitMicros));
    }
    return overshoot;
  }

  async spendOf(company: string, counter: string): Promise<number> {
    return this.spend.get(`${company}\u0000${counter}`) ?? 0;
  }

  private add(company: string, checks: readonly SpendCheck[], micros: number): void {
    for (const check of checks) {
      const key = `${company}\u0000${check.counter}`;
      this.spend.set(key, (this.spend.get(key) ?? 0) + micros);
    }
  }
}
