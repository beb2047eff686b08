import type { SpendCheck, SpendLedger, SpendOutcome } from '../state.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import type { ScriptRunners } from './script-runners.js';

/** A reservation outlives any request; it only bounds what a key left by a crashed process costs. */
export const RESERVATION_TTL_MS = 24 * 60 * 60 * 1000;

/** When a window's counter expires: a day after the window's reset. */
export function counterExpiry(check: SpendCheck): number {
  return check.resetAt + 24 * 60 * 60 * 1000;
}

/**
 * A counter key per company and window, holding what was settled plus what
 * requests in flight reserved; each reservation also has a key of its own
 * (its amount) so that its settlement, which rides on the usage record
 * (usage-log.ts), can replace it exactly once.
 */
export class RedisSpendLedger implements SpendLedger {
  constructor(
    private readonly redis: RedisClient,
    private readonly run: ScriptRunners,
  ) {}

  async reserveSpend(company: string, requestId: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    if (checks.length === 0) return { ok: true };
    const args: Array<string | number> = checks.map((c) => keys.spend(company, c.counter));
    args.push(keys.spendReservation(company, requestId), amountMicros);
    for (const c of checks) args.push(c.limitMicros, counterExpiry(c));
    args.push(RESERVATION_TTL_MS);
    const failed = Number(await this.run.reserve(checks.length + 1, ...args));
    return failed === 0 ? { ok: true } : { ok: false, failed: checks[failed - 1] as SpendCheck };
  }

  async releaseReservation(company: string, requestId: string, checks: readonly SpendCheck[]): Promise<void> {
    if (checks.length === 0) return;
    await this.run.release(checks.length + 1, keys.spendReservation(company, requestId), ...checks.map((c) => keys.spend(company, c.counter)));
  }

  async spendOf(company: string, counter: string): Promise<number> {
    return Number((await this.redis.get(keys.spend(company, counter))) ?? '0');
  }
}
