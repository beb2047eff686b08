import { describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate.js';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import type { GatewayState } from '../../../src/state/state.js';

/**
 * Token comparison must not leak timing. Asserted structurally, not by
 * timing: a caller token is only ever turned into its SHA-256 hash and
 * looked up by that hash (a map or Redis key lookup); the token string
 * itself is never handed to the state nor compared with a stored value.
 */

interface Call {
  readonly method: string;
  readonly args: unknown[];
}

/** A GatewayState that records every call; findToken answers from `known` (hash → record). */
function spyState(known: Map<string, { company: string; name: string }>): { state: GatewayState; calls: Call[] } {
  const calls: Call[] = [];
  const state = new Proxy({} as GatewayState, {
    get(_, property) {
      if (property === 'then') return undefined;
      return async (...args: unknown[]) => {
        calls.push({ method: String(property), args });
        if (property === 'findToken') {
          const found = known.get(args[0] as string);
          return found ? { hash: args[0], company: found.company, name: found.name, address: `${found.name}@${found.company}.example` } : null;
        }
        // An unknown hash is told apart from state being rebuilt after a loss (503, not 401).
        if (property === 'loaded') return true;
        throw new Error(`authenticate must not call state.${String(property)}`);
      };
    },
  });
  return { state, calls };
}

describe('caller tokens are looked up by their SHA-256 hash only', () => {
  it('calls findToken exactly once, with hashToken(token), for a live token', async () => {
    const token = generateToken();
    const { state, calls } = spyState(new Map([[hashToken(token), { company: 'acme', name: 'ci' }]]));
    const record = await authenticate({ authorization: `Bearer ${token}` }, state);
    expect(record.name).toBe('ci');
    expect(calls).toEqual([{ method: 'findToken', args: [hashToken(token)] }]);
  });

  it('calls findToken with the hash for an unknown well-formed token, and refuses it', async () => {
    const token = generateToken();
    const { state, calls } = spyState(new Map([[hashToken(generateToken()), { company: 'acme', name: 'ci' }]]));
    const error = await authenticate({ authorization: `Bearer ${token}` }, state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).fault).toBe('no_session');
    expect(calls).toEqual([
      { method: 'findToken', args: [hashToken(token)] },
      { method: 'loaded', args: [] },
    ]);
  });

  it('never hands the token string itself to the state', async () => {
    for (let i = 0; i < 20; i++) {
      const token = generateToken();
      const { state, calls } = spyState(new Map(i % 2 === 0 ? [[hashToken(token), { company: 'acme', name: 'ci' }]] : []));
      await authenticate({ authorization: `Bearer ${token}`, 'x-api-key': token }, state).catch(() => undefined);
      const passed = JSON.stringify(calls.map((c) => c.args));
      expect(passed).not.toContain(token);
      expect(passed).not.toContain(token.slice(5, 45));
      expect(hashToken(token)).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });

  it('compares no secret itself: the record the hash lookup returns is the answer, whatever it holds', async () => {
    const token = generateToken();
    // A state that answers every hash with a record whose stored hash is not this token's:
    // a comparison of the token (or its hash) with stored values would refuse it.
    const record = { hash: 'sha256:' + '0'.repeat(64), company: 'acme', name: 'ci', address: 'ci@acme.example' };
    const calls: unknown[][] = [];
    const lenient = { findToken: async (...args: unknown[]) => (calls.push(args), record), loaded: async () => true } as unknown as GatewayState;
    expect(await authenticate({ authorization: `Bearer ${token}` }, lenient)).toBe(record);
    expect(calls).toEqual([[hashToken(token)]]);
  });
});
