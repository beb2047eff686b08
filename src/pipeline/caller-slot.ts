import { GatewayError } from '../errors/gateway-error.js';
import { GATEWAY_MESSAGES } from '../errors/messages.js';
import type { CompanyRecords, TokenRecord } from '../state/records.js';
import type { RequestContext } from './context.js';
import type { GovernanceDeps } from './governance-deps.js';
import { failClosed, inBackground } from './state-calls.js';

/**
 * Take a slot under the caller's concurrency cap (its token's override, else
 * the company's cap), queueing up to the company's queue wait: 429 user_cap
 * past it, 503 when the request ended while it queued (the slot goes back).
 */
export async function takeCallerSlot(deps: GovernanceDeps, ctx: RequestContext, token: TokenRecord, company: CompanyRecords): Promise<void> {
  const settings = company.settings;
  const limit = settings.capOverrides[token.name] ?? settings.callerCap;
  const queueSpan = ctx.trace?.phase('caller_queue', { 'gw.caller_cap': limit });
  const acquired = await failClosed(deps.events, 'caller slot', () =>
    deps.state.acquireCallerSlot({ company: company.company, tokenHash: token.hash, limit, requestId: ctx.requestId, ttlMs: deps.config.slotTtlMs, waitMs: settings.queueWaitMs }),
  );
  queueSpan?.end({ 'gw.caller_slot.acquired': acquired });
  if (!acquired) {
    // Retry advice reflects the wait already spent queueing: an automatic retry would only queue again.
    const waitSeconds = Math.max(1, Math.ceil(settings.queueWaitMs / 1000));
    throw new GatewayError('user_cap', GATEWAY_MESSAGES.callerCap(limit, settings.queueWaitMs), [
      ['retry-after', String(waitSeconds)],
      ['retry-after-ms', String(settings.queueWaitMs)],
    ]);
  }
  if (ctx.finished) {
    // The request ended (client gone, shutdown) while it queued: the slot goes straight back.
    inBackground(deps.events, 'slot release', deps.state.releaseCallerSlot(company.company, token.hash, ctx.requestId));
    throw new GatewayError('unavailable', GATEWAY_MESSAGES.endedBeforeAdmitted);
  }
  ctx.slotHeld = true;
}

export function renewCallerSlot(deps: GovernanceDeps, ctx: RequestContext): void {
  const token = ctx.token;
  if (ctx.slotHeld && token) inBackground(deps.events, 'slot renewal', deps.state.renewCallerSlot(token.company, token.hash, ctx.requestId, deps.config.slotTtlMs));
}

/** Null when the request holds no slot. */
export function releaseCallerSlot(deps: GovernanceDeps, ctx: RequestContext): Promise<void> | null {
  return ctx.slotHeld && ctx.token ? deps.state.releaseCallerSlot(ctx.token.company, ctx.token.hash, ctx.requestId) : null;
}
