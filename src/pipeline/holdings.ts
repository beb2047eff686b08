import { releaseCallerSlot, renewCallerSlot } from './caller-slot.js';
import type { RequestContext } from './context.js';
import { releaseLease, renewLease } from './credential-lease.js';
import type { GovernanceDeps } from './governance-deps.js';

/**
 * From the slot's grant to the request's end, renew the slot (and the lease,
 * once there is one) a third of the way into the TTL: a slow upload, a
 * silent provider and a long stream all keep them; the TTL only frees what a
 * crashed process held. releaseHoldings() stops it.
 */
export function keepHeld(deps: GovernanceDeps, ctx: RequestContext): void {
  const period = Math.min(deps.config.slotTtlMs, deps.config.leaseTtlMs) / 3;
  ctx.renewal = setInterval(() => {
    renewCallerSlot(deps, ctx);
    renewLease(deps, ctx);
  }, period);
  ctx.renewal.unref?.();
}

/**
 * At the request's end: stop renewing, give back the lease and the caller
 * slot (the spend reservation is settled by the usage record,
 * spend-reservation.ts). Every failure is reported; none keeps the other
 * from happening.
 */
export async function releaseHoldings(deps: GovernanceDeps, ctx: RequestContext): Promise<void> {
  if (ctx.renewal) clearInterval(ctx.renewal);
  ctx.renewal = null;
  // Both started, and both handled, before either is awaited: a failure of one is reported and never skips the other.
  const report = (error: unknown): void => deps.events.stateError('release', error);
  const lease = releaseLease(deps, ctx)?.catch(report);
  const slot = releaseCallerSlot(deps, ctx)?.catch(report);
  if (lease) await lease;
  if (slot) await slot;
}
