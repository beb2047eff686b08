import { MICROS, overBudget, spendPlan, unpricedRefused, worstCaseMicros } from '../governance/spend-admission.js';
import { costOf } from '../metering/cost.js';
import type { ModelDecision } from '../policy/authorize-model.js';
import type { SpendSettlement } from '../state/state.js';
import type { RequestContext } from './context.js';
import type { GovernanceDeps } from './governance-deps.js';
import { failClosed } from './state-calls.js';

/**
 * Reserve the worst case before forwarding, so concurrent requests cannot
 * overshoot a limit; settlement at the end replaces it with the metered cost.
 * Refuses (402 over_budget) what does not fit, and an unpriced model where
 * the company refuses those (403).
 */
export async function reserveSpend(deps: GovernanceDeps, ctx: RequestContext, price: ModelDecision['price'], bodyBytes: number, maxTokens: number): Promise<void> {
  const company = ctx.company as NonNullable<RequestContext['company']>;
  const token = ctx.token as NonNullable<RequestContext['token']>;
  if (!price) {
    if (company.settings.refuseUnpriced) throw unpricedRefused(ctx.model?.parsed.raw ?? '');
    return;
  }
  const now = deps.now();
  const plan = spendPlan(company.settings, token.hash, now, worstCaseMicros(bodyBytes, maxTokens, price));
  if (!plan) return;
  const outcome = await failClosed(deps.events, 'spend', () => deps.state.reserveSpend(company.company, ctx.requestId, plan.checks, plan.reservedMicros));
  if (!outcome.ok) {
    // Whether the limit is already spent or only this request's reservation would pass it changes what helps.
    const spent = await deps.state.spendOf(company.company, outcome.failed.counter).catch(() => null);
    throw overBudget(outcome.failed, now, spent === null ? null : { spentMicros: spent, reservedMicros: plan.reservedMicros });
  }
  ctx.spend = plan;
}

/** Give the whole reservation back: the request is not forwarded. */
export async function returnReservation(deps: GovernanceDeps, ctx: RequestContext): Promise<void> {
  const plan = ctx.spend;
  if (!plan || !ctx.company) return;
  ctx.spend = null;
  await deps.state.releaseReservation(ctx.company.company, ctx.requestId, plan.checks).catch((error: unknown) => deps.events.stateError('spend', error));
}

/**
 * What replaces the reservation: the metered cost (nothing metered costs
 * nothing). It is settled by the request's usage record, in the same write
 * and as often as that is written (once per request id), so a record
 * restored after a failover restores its spend and none is counted twice.
 */
export function spendSettlement(ctx: RequestContext): SpendSettlement | undefined {
  const plan = ctx.spend;
  if (!plan) return undefined;
  ctx.spend = null;
  const usage = ctx.usage;
  const actual = usage ? Math.round((costOf(usage, ctx.model?.price) ?? 0) * MICROS) : 0;
  return { checks: plan.checks, actualMicros: actual };
}
