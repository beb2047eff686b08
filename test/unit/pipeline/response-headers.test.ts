import { describe, expect, it } from 'vitest';
import { relayedResponseHeaders } from '../../../src/pipeline/response-headers.js';

describe('relayedResponseHeaders', () => {
  it('removes every x-gw-* header the provider sent and adds only the gateway tags', () => {
    const policy = relayedResponseHeaders({ 'content-type': 'application/json', 'x-gw-fault': 'no_session', 'x-gw-request-id': 'forged', 'request-id': 'req_provider' }, 'req_1', undefined);
    expect(policy.remove).toEqual(['x-gw-fault', 'x-gw-request-id']);
    expect(policy.add).toEqual([
      ['x-gw-source', 'upstream'],
      ['x-gw-request-id', 'req_1'],
    ]);
  });

  it('adds the attribution warning when there is one', () => {
    expect(relayedResponseHeaders({}, 'req_2', 'x-gw-repo ignored').add).toContainEqual(['x-gw-warning', 'x-gw-repo ignored']);
    expect(relayedResponseHeaders({}, 'req_2', '').add.map(([k]) => k)).not.toContain('x-gw-warning');
  });
});
