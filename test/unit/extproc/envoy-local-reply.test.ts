import { describe, expect, it } from 'vitest';
import { envoyLocalReplyFault, withRequestId } from '../../../src/extproc/envoy-local-reply.js';

describe('envoyLocalReplyFault', () => {
  it('names the fault of a reply Envoy shaped as the gateway', () => {
    expect(envoyLocalReplyFault({ 'x-gw-source': 'gateway', 'x-gw-fault': 'upstream_unreachable' })).toBe('upstream_unreachable');
  });

  it('is null for a provider response (no gateway source)', () => {
    expect(envoyLocalReplyFault({ 'x-gw-fault': 'upstream_unreachable' })).toBeNull();
    expect(envoyLocalReplyFault({ 'x-gw-source': 'upstream', 'x-gw-fault': 'upstream_unreachable' })).toBeNull();
  });

  it('is null when the gateway-shaped reply carries no fault or one the catalogue does not know', () => {
    expect(envoyLocalReplyFault({ 'x-gw-source': 'gateway' })).toBeNull();
    expect(envoyLocalReplyFault({ 'x-gw-source': 'gateway', 'x-gw-fault': 'made_up' })).toBeNull();
    // Inherited object keys are not faults.
    expect(envoyLocalReplyFault({ 'x-gw-source': 'gateway', 'x-gw-fault': 'constructor' })).toBeNull();
    expect(envoyLocalReplyFault({ 'x-gw-source': 'gateway', 'x-gw-fault': '__proto__' })).toBeNull();
  });
});

describe('withRequestId', () => {
  it('sets request_id on a JSON object body and keeps the other fields', () => {
    const body = Buffer.from(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'm' }, request_id: 'envoy-id' }));
    const out = withRequestId(body, 'gw-id');
    expect(out).not.toBeNull();
    expect(JSON.parse(out!.toString('utf8'))).toEqual({ type: 'error', error: { type: 'api_error', message: 'm' }, request_id: 'gw-id' });
  });

  it('adds request_id when the body has none', () => {
    expect(JSON.parse(withRequestId(Buffer.from('{"a":1}'), 'r1')!.toString('utf8'))).toEqual({ a: 1, request_id: 'r1' });
  });

  it('leaves a body that is not a JSON object alone (null)', () => {
    for (const text of ['', 'upstream connect error', '[1,2]', 'null', '"text"', '42', '{"a":']) {
      expect(withRequestId(Buffer.from(text), 'r1')).toBeNull();
    }
  });
});
