import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../../src/errors/gateway-error.js';
import { mustAppearOnce, refuseDuplicates, refuseOversizedHead } from '../../../src/pipeline/header-shape.js';
import type { RequestHead } from '../../../src/pipeline/types.js';

function head(headers: Record<string, string>, extra: Partial<RequestHead> = {}): RequestHead {
  return { method: 'POST', path: '/v1/messages', headers, ...extra };
}

function faultOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return `${error.status} ${error.fault}`;
  }
}

describe('refuseDuplicates', () => {
  it('refuses a repeated authorization, x-api-key, content-length, host or x-gw-* header with 400 invalid_request', () => {
    for (const name of ['authorization', 'x-api-key', 'content-length', 'host', 'x-gw-repo', 'x-gw-application', 'x-gw-anything']) {
      expect(mustAppearOnce(name), name).toBe(true);
      expect(
        faultOf(() => refuseDuplicates(head({}, { repeated: [name] }))),
        name,
      ).toBe('400 invalid_request');
    }
  });

  it('lets other repeated headers through (they are joined, as HTTP allows)', () => {
    expect(faultOf(() => refuseDuplicates(head({}, { repeated: ['anthropic-beta', 'accept', 'x-stainless-lang'] })))).toBeNull();
    expect(faultOf(() => refuseDuplicates(head({})))).toBeNull();
  });

  it('names the header in a message that says what to do', () => {
    try {
      refuseDuplicates(head({}, { repeated: ['authorization'] }));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe('gw: the authorization header appears more than once; send it exactly once');
    }
  });
});

describe('refuseOversizedHead', () => {
  const limits = { maxHeaders: 5, maxHeaderBytes: 100 };

  it('refuses more fields than the limit with 431, counting repeats the data plane saw', () => {
    const five = { a: '1', b: '2', c: '3', d: '4', e: '5' };
    expect(faultOf(() => refuseOversizedHead(head(five), limits))).toBeNull();
    expect(faultOf(() => refuseOversizedHead(head({ ...five, f: '6' }), limits))).toBe('431 headers_too_large');
    expect(faultOf(() => refuseOversizedHead(head({ a: '1' }, { fieldCount: 6 }), limits))).toBe('431 headers_too_large');
  });

  it('refuses more header bytes than the limit with 431', () => {
    expect(faultOf(() => refuseOversizedHead(head({ a: 'x'.repeat(99) }), limits))).toBeNull();
    expect(faultOf(() => refuseOversizedHead(head({ a: 'x'.repeat(100) }), limits))).toBe('431 headers_too_large');
  });

  it('takes the count and bytes the data plane read as sent, which a joined map can understate', () => {
    // Node keeps the first of some repeated headers and drops the rest: the bytes as sent are what the limit is on.
    expect(faultOf(() => refuseOversizedHead(head({ a: 'x' }, { fieldCount: 2, headerBytes: 101 }), limits))).toBe('431 headers_too_large');
    expect(faultOf(() => refuseOversizedHead(head({ a: 'x' }, { fieldCount: 2, headerBytes: 100 }), limits))).toBeNull();
    expect(faultOf(() => refuseOversizedHead(head({ a: 'x' }, { fieldCount: 6, headerBytes: 2 }), limits))).toBe('431 headers_too_large');
  });
});
