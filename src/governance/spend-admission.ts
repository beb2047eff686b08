import { GatewayError } from '../errors/gateway-error.js';
import { SPEND_MESSAGES } from '../errors/messages.js';
import type { Price } from '../models/price.js';
import type { CompanySettings, SpendLimit } from '../state/records.js';
import type { SpendCheck } from '../state/state.js';
import { windowSpan } from './spend-windows.js';

/** Micro-dollars, so counters are integers and concurrent increments never round. */
export const MICROS = 1_000_000;

/** Rough bytes per token for the worst-case input estimate; real prompts average 3.5–4.5. */
const BYTES_PER_TOKEN = 3;

export interface SpendPlan {
  readonly checks: readonly SpendCheck[];
  readonly reservedMicros: number;
}

/**
 * Worst case a request can cost before it is sent: every body byte an input
 * token at a third of a byte each, plus max_tokens of output. Reserving
 * this at admission is what keeps concurrent requests from overshooting.
 */
export function worstCaseMicros(bodyBytes: number, maxTokens: number, price: Price): number {
  const inputTokens = Math.ceil(bodyBytes / BYTES_PER_TOKEN);
  return Math.ceil(inputTokens * price.input + maxTokens * price.output);
}

function checksFor(scope: 'token' | 'company', subject: string, limits: readonly SpendLimit[], now: number, timeZone: string): SpendCheck[] {
  return limits.map((limit) => {
    const span = windowSpan(limit.window, now, timeZone);
    return {
      counter: scope === 'token' ? `token:${subject}:${span.id}` : `company:${span.id}`,
      limitMicros: Math.round(limit.usd * MICROS),
      resetAt: span.resetAt,
      label: `${limit.window} ${scope === 'token' ? 'per-token' : 'company'} spend limit of $${limit.usd}`,
    };
  });
}

/** The counters a request must fit under, or null when the company sets no limits. */
export function spendPlan(settings: CompanySettings, tokenHash: string, now: number, costMicros: number): SpendPlan | null {
  if (settings.perTokenLimits.length === 0 && settings.companyLimits.length === 0) return null;
  const checks = [
    ...checksFor('token', tokenHash.slice('sha256:'.length), settings.perTokenLimits, now, settings.timeZone),
    ...checksFor('company', '', settings.companyLimits, now, settings.timeZone),
  ];
  return { checks, reservedMicros: costMicros };
}

/** What the counter held when admission failed, and what this request would have reserved. */
export interface SpendShortfall {
  readonly spentMicros: number;
  readonly reservedMicros: number;
}

const dollars = (micros: number): string => `$${(micros / MICROS).toFixed(micros !== 0 && Math.abs(micros) < 10_000 ? 6 : 2)}`;

/**
 * 402 over_budget. The message tells apart a limit already spent from one that
 * only this request's worst-case reservation would pass (then a smaller
 * max_tokens or body may fit now); both give the real reset in retry-after.
 */
export function overBudget(check: SpendCheck, now: number, shortfall: SpendShortfall | null = null): GatewayError {
  const seconds = Math.max(1, Math.ceil((check.resetAt - now) / 1000));
  const reset = new Date(check.resetAt).toISOString();
  const message =
    shortfall !== null && shortfall.spentMicros < check.limitMicros
      ? SPEND_MESSAGES.wouldPass(check.label, dollars(shortfall.spentMicros), dollars(shortfall.reservedMicros), reset)
      : SPEND_MESSAGES.reached(check.label, reset);
  return new GatewayError('over_budget', message, [['retry-after', String(seconds)]]);
}

export function unpricedRefused(model: string): GatewayError {
  return new GatewayError('model_not_allowed', SPEND_MESSAGES.unpricedRefused(model));
}
