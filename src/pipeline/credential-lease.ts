import { GatewayError } from '../errors/gateway-error.js';
import { CREDENTIAL_MESSAGES, GATEWAY_MESSAGES } from '../errors/messages.js';
import type { ModelDecision } from '../policy/authorize-model.js';
import type { CompanyRecords } from '../state/records.js';
import type { Lease } from '../state/state.js';
import type { RequestContext } from './context.js';
import type { GovernanceDeps } from './governance-deps.js';
import { returnReservation } from './spend-reservation.js';
import { failClosed, inBackground } from './state-calls.js';

/**
 * Lease one of the decision's candidate credentials (sticky per caller and
 * session). When none can take the request, the spend reservation goes back
 * and the answer is 503 no_capacity saying why: busy, rejected keys (which
 * the health port then re-checks) or exhausted seat windows.
 */
export async function takeLease(deps: GovernanceDeps, ctx: RequestContext, company: CompanyRecords, decision: ModelDecision, session: string | null | undefined): Promise<Lease> {
  const leaseSpan = ctx.trace?.phase('lease');
  const outcome = await failClosed(deps.events, 'lease', () =>
    deps.state.acquireLease({
      company: company.company,
      candidates: decision.candidates,
      session: session ? `${ctx.token?.name}\u0000${session}` : null,
      requestId: ctx.requestId,
      ttlMs: deps.config.leaseTtlMs,
    }),
  );
  if (!outcome.ok) {
    await returnReservation(deps, ctx);
    if (outcome.reason === 'rejected') {
      const rejected = new Set(outcome.credentials);
      deps.health?.rejectedInUse(decision.candidates.filter((c) => rejected.has(c.name)));
    }
    const message =
      outcome.reason === 'busy'
        ? CREDENTIAL_MESSAGES.busy(decision.provider)
        : outcome.reason === 'rejected'
          ? CREDENTIAL_MESSAGES.rejected(decision.provider, outcome.credentials)
          : CREDENTIAL_MESSAGES.exhausted(decision.provider, outcome.earliestReset === null ? null : new Date(outcome.earliestReset).toISOString());
    // Busy credentials free up soon; exhausted windows and rejected keys do not free by retrying.
    throw new GatewayError('no_capacity', message, outcome.reason === 'busy' ? [] : [['x-should-retry', 'false']]);
  }
  if (ctx.finished) {
    inBackground(deps.events, 'lease release', deps.state.releaseLease(outcome.lease));
    throw new GatewayError('unavailable', GATEWAY_MESSAGES.endedBeforeForwarded);
  }
  ctx.lease = outcome.lease;
  leaseSpan?.end({ 'gw.credential': outcome.lease.credential.name });
  deps.events.leaseChanged(company.company, outcome.lease.credential.name, 1);
  return outcome.lease;
}

export function renewLease(deps: GovernanceDeps, ctx: RequestContext): void {
  if (ctx.lease) inBackground(deps.events, 'lease renewal', deps.state.renewLease(ctx.lease, deps.config.leaseTtlMs));
}

/** Null when the request holds no lease. */
export function releaseLease(deps: GovernanceDeps, ctx: RequestContext): Promise<void> | null {
  if (!ctx.lease) return null;
  const released = deps.state.releaseLease(ctx.lease);
  deps.events.leaseChanged(ctx.lease.company, ctx.lease.credential.name, -1);
  return released;
}
