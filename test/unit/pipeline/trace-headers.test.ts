import { describe, expect, it } from 'vitest';
import type { HeaderPlan } from '../../../src/pipeline/forward-headers.js';
import { providerTraceHeaders } from '../../../src/pipeline/trace-headers.js';
import type { PhaseSpan } from '../../../src/pipeline/tracing.js';

const SPAN: PhaseSpan = { event: () => undefined, end: () => undefined, traceparent: () => '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01' };

function plan(): HeaderPlan {
  return { remove: ['authorization'], set: [['content-length', '2']] };
}

describe('providerTraceHeaders', () => {
  it('strips the caller trace context when the company does not send it to providers', () => {
    const p = plan();
    providerTraceHeaders(false, SPAN, p);
    expect(p.remove).toEqual(['authorization', 'traceparent', 'tracestate']);
    expect(p.set).toEqual([['content-length', '2']]);
  });

  it('makes the upstream span the provider parent when allowed', () => {
    const p = plan();
    providerTraceHeaders(true, SPAN, p);
    expect(p.set).toContainEqual(['traceparent', '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01']);
    expect(p.remove).toEqual(['authorization']);
  });

  it("lets the caller's own context pass when allowed and this request is not traced", () => {
    const p = plan();
    providerTraceHeaders(true, null, p);
    expect(p).toEqual(plan());
  });
});
