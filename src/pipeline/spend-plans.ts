import { spendPlan, type SpendPlan } from '../governance/spend-admission.js';
import type { CompanySettings } from '../state/records.js';
import type { SpendCheck } from '../state/state.js';

interface Cached {
  readonly checks: readonly SpendCheck[];
  readonly from: number;
  readonly until: number;
}

/** Re-check at least this often even inside a window (a bound on any error in a computed reset time). */
const MAX_REUSE_MS = 60_000;
const MAX_TOKENS_PER_SETTINGS = 10_000;

/**
 * The spend counters a request must fit under depend only on the company's
 * settings, the token and the calendar windows the moment falls in; working
 * the windows out (time-zone arithmetic through Intl) cost more than the rest
 * of admission on every request. So the counters are reused until the
 * earliest window resets (and at most a minute); new settings (a reload, a
 * changed record) are a new object and start afresh.
 */
export class SpendPlans {
  private readonly bySettings = new WeakMap<CompanySettings, Map<string, Cached>>();

  plan(settings: CompanySettings, tokenHash: string, now: number, costMicros: number): SpendPlan | null {
    if (settings.perTokenLimits.length === 0 && settings.companyLimits.length === 0) return null;
    let byToken = this.bySettings.get(settings);
    const hit = byToken?.get(tokenHash);
    if (hit && now >= hit.from && now < hit.until) return { checks: hit.checks, reservedMicros: costMicros };
    const fresh = spendPlan(settings, tokenHash, now, costMicros);
    if (!fresh) return null;
    let until = now + MAX_REUSE_MS;
    for (const check of fresh.checks) if (check.resetAt < until) until = check.resetAt;
    if (!byToken) this.bySettings.set(settings, (byToken = new Map()));
    if (byToken.size >= MAX_TOKENS_PER_SETTINGS) byToken.clear();
    byToken.set(tokenHash, { checks: fresh.checks, from: now, until });
    return fresh;
  }
}
