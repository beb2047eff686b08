import type { SpendCheck, SpendLedger, SpendOutcome } from '../state.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import type { ScriptRunners } from './script-runners.js';

/** A counter key per company and window, expiring a day after the window's reset. */
export class RedisSpendLedger implements SpendLedger {
  constructor(
    private readonly redis: RedisClient,
    private readonly run: ScriptRunners,
  ) {}

  async reserveSpend(company: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    if (checks.length === 0) return { ok: true };
    const args: Array<string | number> = checks.map((c) => keys.spend(company, c.counter));
    args.push(amountMicros);
    for (const c of checks) args.push(c.limitMicros, c.resetAt + 24 * 60 * 60 * 1000);
    const failed = Number(await this.run.reserve(checks.length, ...args));
    return failed === 0 ? { ok: true } : { ok: false, failed: checks[failed - 1] as SpendCheck };
  }

  async adjustSpend(company: string, checks: readonly SpendCheck[], deltaMicros: number): Promise<void> {
    if (checks.length === 0 || deltaMicros === 0) return;
    await this.run.adjust(checks.length, ...checks.map((c) => keys.spend(company, c.counter)), Math.round(deltaMicros));
  }

  async spendOf(company: string, counter: string): Promise<number> {
    return Number((await this.redis.get(keys.spend(company, counter))) ?? '0');
  }
}
