import { GatewayError } from '../errors/gateway-error.js';
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

export function overBudget(check: SpendCheck, now: number): GatewayError {
  const seconds = Math.max(1, Math.ceil((check.resetAt - now) / 1000));
  return new GatewayError('over_budget', `gw: the ${check.label} is reached; it resets at ${new Date(check.resetAt).toISOString()}`, [['retry-after', String(seconds)]]);
}

export function unpricedRefused(model: string): GatewayError {
  return new GatewayError('model_not_allowed', `gw: "${model}" has no known price and your company refuses unpriced models; an owner can add its price in GatewaySettings`);
}
