import type { HeaderPlan } from './forward-headers.js';
import type { PhaseSpan } from './tracing.js';

const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate'] as const;

/**
 * Whether the provider learns the trace (GatewaySettings
 * spec.traceContextToProvider, off by default: a trace id handed to a third
 * party correlates the company's traffic there). Off: the caller's W3C trace
 * context is stripped too. On: the provider's span becomes a child of the
 * gateway's upstream span, or the caller's own context passes through when
 * this request is not traced.
 */
export function providerTraceHeaders(allowed: boolean, upstream: PhaseSpan | null, plan: HeaderPlan): void {
  if (!allowed) {
    plan.remove.push(...TRACE_CONTEXT_HEADERS);
    return;
  }
  if (upstream !== null) plan.set.push(['traceparent', upstream.traceparent()]);
}
