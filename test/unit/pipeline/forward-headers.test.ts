import { describe, expect, it } from 'vitest';
import { OAUTH_BETA_FLAG } from '../../../src/models/providers.js';
import { DEFAULT_API_VERSION } from '../../../src/models/providers.js';
import { forwardHeaders, isForwardedCallerHeader } from '../../../src/pipeline/forward-headers.js';
import type { HeaderMap } from '../../../src/pipeline/types.js';
import { credential } from '../support/records.js';

const API_KEY = credential({ name: 'key', secret: 'sk-ant-api03-secret' });
const BEARER_KEY = credential({ name: 'router', provider: 'provider_a', authScheme: 'bearer', secret: 'sk-or-v1-secret' });
const SEAT = credential({ name: 'seat', kind: 'subscriptionSeat', authScheme: 'bearer', secret: 'sk-ant-oat01-secret' });

const CLIENT: HeaderMap = {
  authorization: 'Bearer gwct_caller',
  'x-api-key': 'sk-ant-stray',
  cookie: 'session=1',
  'provider-version': '2023-06-01',
  'content-length': '123',
  'content-type': 'application/json',
  'accept-encoding': 'gzip, br',
  'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)',
  'x-stainless-lang': 'js',
  'x-claude-code-session-id': '2e341e81',
  'x-gw-repo': 'github.com/acme/widgets',
  'x-gw-application': 'app',
  'x-gw-end-user': 'u',
  'x-gw-anything-else': '1',
};

function setOf(plan: ReturnType<typeof forwardHeaders>): Map<string, string> {
  const names = plan.set.map(([name]) => name);
  expect(new Set(names).size).toBe(names.length);
  return new Map(plan.set);
}

describe('forwardHeaders', () => {
  it("removes the caller's credentials, cookies, the version header, every x-gw-* header and the framing headers", () => {
    const plan = forwardHeaders(CLIENT, API_KEY, 10);
    expect(new Set(plan.remove)).toEqual(
      new Set(['authorization', 'x-api-key', 'cookie', 'provider-version', 'content-length', 'accept-encoding', 'x-gw-repo', 'x-gw-application', 'x-gw-end-user', 'x-gw-anything-else']),
    );
  });

  it('leaves every other client header alone', () => {
    const plan = forwardHeaders(CLIENT, API_KEY, 10);
    const touched = new Set([...plan.remove, ...plan.set.map(([n]) => n)]);
    for (const name of ['content-type', 'user-agent', 'x-stainless-lang', 'x-claude-code-session-id']) expect(touched.has(name), name).toBe(false);
  });

  it('sets content-length to the final body length and pins identity encoding', () => {
    const set = setOf(forwardHeaders(CLIENT, API_KEY, 76_274));
    expect(set.get('content-length')).toBe('76274');
    expect(set.get('accept-encoding')).toBe('identity');
  });

  it("sends the version under the upstream's name, from either header, defaulting to 2023-06-01", () => {
    expect(setOf(forwardHeaders({ 'provider-version': '2024-01-01' }, API_KEY, 0)).get('anthropic-version')).toBe('2024-01-01');
    expect(setOf(forwardHeaders({ 'anthropic-version': '2023-06-01' }, API_KEY, 0)).get('anthropic-version')).toBe('2023-06-01');
    expect(setOf(forwardHeaders({}, API_KEY, 0)).get('anthropic-version')).toBe(DEFAULT_API_VERSION);
    expect(DEFAULT_API_VERSION).toBe('2023-06-01');
  });

  it('sends an x-api-key credential as x-api-key and no authorization', () => {
    const set = setOf(forwardHeaders(CLIENT, API_KEY, 0));
    expect(set.get('x-api-key')).toBe('sk-ant-api03-secret');
    expect(set.has('authorization')).toBe(false);
  });

  it('sends a bearer credential as Authorization and no x-api-key', () => {
    const set = setOf(forwardHeaders(CLIENT, BEARER_KEY, 0));
    expect(set.get('authorization')).toBe('Bearer sk-or-v1-secret');
    expect(set.has('x-api-key')).toBe(false);
    expect(set.has('anthropic-beta')).toBe(false);
  });

  it("adds the OAuth beta flag for a subscription seat, merged with the client's beta list", () => {
    const set = setOf(forwardHeaders({ ...CLIENT, 'anthropic-beta': 'claude-code-20250219, interleaved-thinking-2025-05-14,,context-1m-2025-08-07' }, SEAT, 0));
    expect(set.get('authorization')).toBe('Bearer sk-ant-oat01-secret');
    expect(set.get('anthropic-beta')).toBe(`claude-code-20250219,interleaved-thinking-2025-05-14,context-1m-2025-08-07,${OAUTH_BETA_FLAG}`);
  });

  it('adds the OAuth beta flag only once', () => {
    const set = setOf(forwardHeaders({ 'anthropic-beta': ` ${OAUTH_BETA_FLAG} ,claude-code-20250219` }, SEAT, 0));
    expect(set.get('anthropic-beta')).toBe(`${OAUTH_BETA_FLAG},claude-code-20250219`);
  });

  it('sends the OAuth beta flag alone when the client sent no beta list', () => {
    expect(setOf(forwardHeaders({}, SEAT, 0)).get('anthropic-beta')).toBe('oauth-2025-04-20');
    expect(setOf(forwardHeaders({ 'anthropic-beta': '' }, SEAT, 0)).get('anthropic-beta')).toBe('oauth-2025-04-20');
  });

  it('forwards only the documented caller headers: anything else, however named, stays at the gateway', () => {
    const hostile: HeaderMap = {
      ...CLIENT,
      host: 'evil.example',
      'x-forwarded-for': '10.0.0.1',
      forwarded: 'for=10.0.0.1',
      'proxy-authorization': 'Basic Zm9vOmJhcg==',
      'anthropic-organization-id': 'org-other',
      'x-custom-filler-1': 'a',
      'x-custom-filler-2': 'b',
      accept: 'application/json',
      'idempotency-key': 'k1',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      'x-stainless-retry-count': '0',
      'x-app': 'cli',
    };
    const plan = forwardHeaders(hostile, API_KEY, 0);
    const removed = new Set(plan.remove);
    for (const name of ['host', 'x-forwarded-for', 'forwarded', 'proxy-authorization', 'anthropic-organization-id', 'x-custom-filler-1', 'x-custom-filler-2'])
      expect(removed.has(name), name).toBe(true);
    for (const name of ['accept', 'idempotency-key', 'traceparent', 'x-stainless-retry-count', 'x-stainless-lang', 'x-app', 'user-agent', 'content-type', 'x-claude-code-session-id'])
      expect(removed.has(name), name).toBe(false);
    for (const name of Object.keys(hostile)) expect(removed.has(name) !== isForwardedCallerHeader(name), name).toBe(true);
  });

  it('never lets a caller switch an API key to OAuth with the beta flag', () => {
    const set = setOf(forwardHeaders({ 'anthropic-beta': `claude-code-20250219,${OAUTH_BETA_FLAG}` }, API_KEY, 0));
    expect(set.get('anthropic-beta')).toBe('claude-code-20250219');
    expect(set.get('x-api-key')).toBe('sk-ant-api03-secret');
    const alone = forwardHeaders({ 'anthropic-beta': OAUTH_BETA_FLAG }, API_KEY, 0);
    expect(alone.remove).toContain('anthropic-beta');
    expect(setOf(alone).has('anthropic-beta')).toBe(false);
  });

  it("leaves the client's beta list untouched for an API key", () => {
    const plan = forwardHeaders({ 'anthropic-beta': 'claude-code-20250219' }, API_KEY, 0);
    expect(setOf(plan).has('anthropic-beta')).toBe(false);
    expect(plan.remove).not.toContain('anthropic-beta');
  });

  it("leaves an API key's beta list untouched when the OAuth flag's text is only part of another flag", () => {
    const beta = `claude-code-20250219,x-${OAUTH_BETA_FLAG}-preview`;
    const plan = forwardHeaders({ 'anthropic-beta': beta }, API_KEY, 0);
    expect(setOf(plan).has('anthropic-beta')).toBe(false);
    expect(plan.remove).not.toContain('anthropic-beta');
  });
});
