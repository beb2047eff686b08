import type { SpendCheck, SpendLedger, SpendOutcome } from '../state.js';

export class MemorySpendLedger implements SpendLedger {
  private readonly spend = new Map<string, number>();

  async reserveSpend(company: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    for (const check of checks) {
      if ((this.spend.get(`${company}\u0000${check.counter}`) ?? 0) + amountMicros > check.limitMicros) return { ok: false, failed: check };
    }
    for (const check of checks) {
      const key = `${company}\u0000${check.counter}`;
      this.spend.set(key, (this.spend.get(key) ?? 0) + amountMicros);
    }
    return { ok: true };
  }

  async adjustSpend(company: string, checks: readonly SpendCheck[], deltaMicros: number): Promise<void> {
    for (const check of checks) {
      const key = `${company}\u0000${check.counter}`;
      this.spend.set(key, (this.spend.get(key) ?? 0) + deltaMicros);
    }
  }

  async spendOf(company: string, counter: string): Promise<number> {
    return this.spend.get(`${company}\u0000${counter}`) ?? 0;
  }
}
