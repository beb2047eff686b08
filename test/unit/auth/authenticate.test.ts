import { describe, expect, it } from 'vitest';
import { authenticate, bearerOf } from '../../../src/auth/authenticate.js';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { MESSAGES } from '../../../src/errors/messages.js';
import type { HeaderMap } from '../../../src/pipeline/types.js';
import { MemoryState } from '../../../src/state/memory.js';
import type { GatewayState } from '../../../src/state/state.js';
import { company } from '../support/records.js';

describe('bearerOf', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['bEaReR abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer    abc', 'abc'],
    ['Bearer gwct_x y', 'gwct_x y'],
  ])('%j → %j', (header, expected) => {
    expect(bearerOf(header)).toBe(expected);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['only spaces', '   '],
    ['scheme only', 'Bearer'],
    ['scheme and spaces', 'Bearer    '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['scheme glued to the token', 'Bearerabc'],
    ['a bare token', 'gwct_abc'],
    ['a longer scheme name', 'Bearers abc'],
  ])('%s → null', (_, header) => {
    expect(bearerOf(header)).toBeNull();
  });
});

async function stateWith(tokenValue: string): Promise<MemoryState> {
  const state = new MemoryState(() => 0);
  await state.replaceCompany(company({ tokens: [{ hash: hashToken(tokenValue), company: 'acme', name: 'ci', address: 'ci@acme.example' }] }));
  return state;
}

async function failure(headers: HeaderMap, state: GatewayState): Promise<GatewayError> {
  const error = await authenticate(headers, state).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  const gatewayError = error as GatewayError;
  expect(gatewayError.fault).toBe('no_session');
  expect(gatewayError.status).toBe(401);
  return gatewayError;
}

/** A state that fails the test if it is consulted. */
const untouchable: GatewayState = new Proxy({} as GatewayState, {
  get(_, property) {
    // Not a thenable: awaiting a value that holds the proxy must not count as touching it.
    if (property === 'then') return undefined;
    throw new Error(`state.${String(property)} must not be touched`);
  },
});

describe('authenticate', () => {
  it('returns the live token record for a bearer token, scheme in any case', async () => {
    const token = generateToken();
    const state = await stateWith(token);
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      await expect(authenticate({ authorization: `${scheme} ${token}` }, state)).resolves.toEqual({
        hash: hashToken(token),
        company: 'acme',
        name: 'ci',
        address: 'ci@acme.example',
      });
    }
  });

  it('ignores an x-api-key sent beside a valid bearer', async () => {
    const token = generateToken();
    const state = await stateWith(token);
    const record = await authenticate({ authorization: `Bearer ${token}`, 'x-api-key': 'sk-ant-whatever' }, state);
    expect(record.name).toBe('ci');
  });

  it('without any credential header says how to send the bearer', async () => {
    const error = await failure({}, untouchable);
    expect(error.message).toBe(MESSAGES.noBearer);
  });

  it('never authenticates with x-api-key, even holding a live token, and says so', async () => {
    const token = generateToken();
    const state = await stateWith(token);
    const error = await failure({ 'x-api-key': token }, state);
    expect(error.message).toBe(MESSAGES.xApiKeyNeverRead);
  });

  it('gives the x-api-key message when the Authorization header is not a bearer', async () => {
    const error = await failure({ authorization: 'Basic Zm9vOmJhcg==', 'x-api-key': 'gwct_x' }, untouchable);
    expect(error.message).toBe(MESSAGES.xApiKeyNeverRead);
  });

  it.each([
    ['the documentation placeholder', 'gwct_test'],
    ['a provider key', 'sk-ant-api03-abcdef'],
    ['a token with a broken checksum', 'flip'],
  ])('refuses %s as malformed without touching state', async (_, value) => {
    const token = value === 'flip' ? flipLast(generateToken()) : value;
    const error = await failure({ authorization: `Bearer ${token}` }, untouchable);
    expect(error.message).toBe(MESSAGES.malformedToken);
  });

  it('refuses a well-formed token that no company has', async () => {
    const state = await stateWith(generateToken());
    const error = await failure({ authorization: `Bearer ${generateToken()}` }, state);
    expect(error.message).toBe(MESSAGES.noLiveToken);
  });

  it('refuses a token on the first request after it was removed from the state', async () => {
    const token = generateToken();
    const state = await stateWith(token);
    await authenticate({ authorization: `Bearer ${token}` }, state);
    await state.replaceCompany(company());
    const error = await failure({ authorization: `Bearer ${token}` }, state);
    expect(error.message).toBe(MESSAGES.noLiveToken);
  });
});

describe('authenticate while the state is being rebuilt', () => {
  it('answers 503 unavailable, not 401, for a token it cannot find while the state has no complete picture', async () => {
    const token = generateToken();
    const state = await stateWith(token);
    const rebuilding: GatewayState = Object.assign(Object.create(state) as MemoryState, { loaded: async () => false });
    const error = await authenticate({ authorization: `Bearer ${generateToken()}` }, rebuilding).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).fault).toBe('unavailable');
    expect((error as GatewayError).status).toBe(503);
    expect((error as GatewayError).message).toBe(MESSAGES.stateRebuilding);
    // A token it does find is served meanwhile.
    await expect(authenticate({ authorization: `Bearer ${token}` }, rebuilding)).resolves.toMatchObject({ name: 'ci' });
  });
});

function flipLast(token: string): string {
  const last = token[token.length - 1] === 'a' ? 'b' : 'a';
  return token.slice(0, -1) + last;
}
