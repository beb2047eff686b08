import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/token.js';
import { desiredState, GENERATED_TOKEN_KEY, generatedTokenSecretName, type ResourceSet } from '../../../src/reconcile/desired-records.js';
import type { ResourceCondition } from '../../../src/reconcile/conditions.js';
import { SETTINGS_DEFAULTS } from '../../../src/reconcile/settings.js';
import type { GatewaySettings, GatewaySettingsSpec, GatewayToken, GatewayTokenSpec, ProviderCredential, ProviderCredentialSpec, Secret } from '../../../src/resources/types.js';

const HASH_A = hashToken('gwct_a');
const HASH_B = hashToken('gwct_b');
const DELETED = { deletionTimestamp: '2026-01-01T00:00:00Z' };

function settings(name: string, spec: GatewaySettingsSpec = {}, meta: { namespace?: string; deletionTimestamp?: string } = { namespace: 'acme' }): GatewaySettings {
  return { apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name, ...meta }, spec };
}

function token(name: string, spec: GatewayTokenSpec, meta: { namespace?: string; deletionTimestamp?: string } = { namespace: 'acme' }): GatewayToken {
  return { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name, ...meta }, spec };
}

function cred(name: string, spec: Partial<ProviderCredentialSpec> = {}, meta: { namespace?: string; deletionTimestamp?: string } = { namespace: 'acme' }): ProviderCredential {
  return {
    apiVersion: 'gw.io/v1alpha1',
    kind: 'ProviderCredential',
    metadata: { name, ...meta },
    spec: { provider: 'vendor', kind: 'apiKey', secretRef: { name: `${name}-secret`, key: 'key' }, ...spec },
  };
}

function secret(name: string, content: { data?: Record<string, string>; stringData?: Record<string, string> }, namespace = 'acme'): Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, ...content };
}

function resources(input: Partial<ResourceSet>): ResourceSet {
  return { settings: [], tokens: [], credentials: [], secrets: [], ...input };
}

function condition(state: ReturnType<typeof desiredState>, kind: ResourceCondition['kind'], name: string, namespace = 'acme'): ResourceCondition {
  const found = state.conditions.filter((c) => c.kind === kind && c.name === name && c.namespace === namespace);
  expect(found, `${kind} ${namespace}/${name}`).toHaveLength(1);
  return found[0] as ResourceCondition;
}

function only<T>(list: readonly T[]): T {
  expect(list).toHaveLength(1);
  return list[0] as T;
}

describe('desiredState: tokens', () => {
  it('serves a token with a hash under <name>@<token domain>', () => {
    const state = desiredState(resources({ settings: [settings('s', { tokenDomain: 'acme.example' })], tokens: [token('ci', { tokenHash: HASH_A })] }));
    expect(only(state.companies).tokens).toEqual([{ hash: HASH_A, company: 'acme', name: 'ci', address: 'ci@acme.example' }]);
    expect(condition(state, 'GatewayToken', 'ci')).toMatchObject({ ready: true, reason: 'Reconciled', address: 'ci@acme.example' });
  });

  it('uses the namespace as the token domain by default', () => {
    const state = desiredState(resources({ tokens: [token('ci', { tokenHash: HASH_A })] }));
    expect(only(state.companies).tokens[0]?.address).toBe('ci@acme');
  });

  it('leaves a revoked token out of the state and says so', () => {
    const state = desiredState(resources({ tokens: [token('old', { tokenHash: HASH_A, revoked: true }), token('new', { tokenHash: HASH_B })] }));
    expect(only(state.companies).tokens.map((t) => t.name)).toEqual(['new']);
    expect(condition(state, 'GatewayToken', 'old')).toMatchObject({ reason: 'Revoked', address: 'old@acme' });
  });

  it("keeps a token without a hash pending until its generated Secret exists, then serves the Secret's token", () => {
    const pending = desiredState(resources({ tokens: [token('svc', {})] }));
    expect(only(pending.companies).tokens).toEqual([]);
    expect(condition(pending, 'GatewayToken', 'svc')).toMatchObject({ ready: false, reason: 'TokenPending' });

    const generated = secret(generatedTokenSecretName('svc'), { stringData: { [GENERATED_TOKEN_KEY]: 'gwct_generated\n' } });
    const live = desiredState(resources({ tokens: [token('svc', {})], secrets: [generated] }));
    expect(only(live.companies).tokens).toEqual([{ hash: hashToken('gwct_generated'), company: 'acme', name: 'svc', address: 'svc@acme' }]);
    expect(condition(live, 'GatewayToken', 'svc').ready).toBe(true);
  });

  it('does not take a generated Secret from another namespace', () => {
    const elsewhere = secret(generatedTokenSecretName('svc'), { stringData: { token: 'gwct_generated' } }, 'globex');
    const state = desiredState(resources({ tokens: [token('svc', {})], secrets: [elsewhere] }));
    expect(condition(state, 'GatewayToken', 'svc').reason).toBe('TokenPending');
  });

  it('serves one of two tokens with the same hash (the first by name) and flags the other', () => {
    const state = desiredState(resources({ tokens: [token('zeta', { tokenHash: HASH_A }), token('alpha', { tokenHash: HASH_A })] }));
    expect(only(state.companies).tokens.map((t) => t.name)).toEqual(['alpha']);
    expect(condition(state, 'GatewayToken', 'zeta')).toMatchObject({ ready: false, reason: 'DuplicateHash' });
  });

  it("gives a hash to the oldest token across namespaces, so no company can take over another one's callers", () => {
    const older = { ...token('victim', { tokenHash: HASH_A }, { namespace: 'acme' }), metadata: { name: 'victim', namespace: 'acme', creationTimestamp: '2026-01-01T00:00:00Z' } };
    const copy = { ...token('copy', { tokenHash: HASH_A }, { namespace: 'evil' }), metadata: { name: 'copy', namespace: 'evil', creationTimestamp: '2026-02-01T00:00:00Z' } };
    for (const order of [
      [older, copy],
      [copy, older],
    ]) {
      const state = desiredState(resources({ tokens: order }));
      const acme = state.companies.find((c) => c.company === 'acme');
      const evil = state.companies.find((c) => c.company === 'evil');
      expect(acme?.tokens.map((t) => t.name)).toEqual(['victim']);
      expect(evil?.tokens).toEqual([]);
      expect(condition(state, 'GatewayToken', 'copy', 'evil')).toMatchObject({ ready: false, reason: 'DuplicateHash' });
    }
  });

  it('never serves a revoked hash again, whichever token names it later, here or in another namespace', () => {
    const state = desiredState(resources({ tokens: [token('b-new', { tokenHash: HASH_A }), token('copy', { tokenHash: HASH_A }, { namespace: 'other' }), token('fine', { tokenHash: HASH_B })] }), {
      revokedHashes: new Set([HASH_A]),
    });
    expect(state.companies.flatMap((c) => c.tokens.map((t) => t.name))).toEqual(['fine']);
    for (const [name, ns] of [
      ['b-new', 'acme'],
      ['copy', 'other'],
    ] as const) {
      const c = condition(state, 'GatewayToken', name, ns);
      expect(c.ready).toBe(false);
      expect(c.reason).toBe('HashRevoked');
    }
  });

  it('ignores a token being deleted', () => {
    const state = desiredState(resources({ tokens: [token('gone', { tokenHash: HASH_A }, { namespace: 'acme', ...DELETED }), token('kept', { tokenHash: HASH_B })] }));
    expect(only(state.companies).tokens.map((t) => t.name)).toEqual(['kept']);
    expect(state.conditions.some((c) => c.name === 'gone')).toBe(false);
  });
});

describe('desiredState: credentials', () => {
  const withSecret = (spec: Partial<ProviderCredentialSpec> = {}, value = 'sk-ant-api03-x'): ResourceSet =>
    resources({ credentials: [cred('key', spec)], secrets: [secret('key-secret', { stringData: { key: value } })] });

  it("puts a credential in its provider's pool with the schema's defaults", () => {
    const state = desiredState(withSecret());
    expect(only(state.companies).credentials).toEqual([
      {
        company: 'acme',
        name: 'key',
        provider: 'vendor',
        kind: 'apiKey',
        secret: 'sk-ant-api03-x',
        baseUrl: 'https://api.anthropic.com',
        authScheme: 'xApiKey',
        maxConcurrency: 4,
        models: null,
        priority: 0,
      },
    ]);
    expect(condition(state, 'ProviderCredential', 'key')).toMatchObject({ ready: true, reason: 'Reconciled' });
  });

  it.each([
    ['base64 data', { data: { key: Buffer.from('sk-ant-api03-x').toString('base64') } }],
    ['base64 data with the trailing newline echo leaves', { data: { key: Buffer.from('sk-ant-api03-x\n').toString('base64') } }],
    ['stringData', { stringData: { key: 'sk-ant-api03-x' } }],
    ['stringData with a trailing newline', { stringData: { key: 'sk-ant-api03-x\r\n' } }],
    ['stringData over data', { stringData: { key: 'sk-ant-api03-x' }, data: { key: Buffer.from('stale').toString('base64') } }],
  ])('reads the secret value from %s', (_, content) => {
    const state = desiredState(resources({ credentials: [cred('key')], secrets: [secret('key-secret', content)] }));
    expect(only(state.companies).credentials[0]?.secret).toBe('sk-ant-api03-x');
  });

  it.each([
    ['a missing Secret', [], 'SecretMissing'],
    ['a Secret in another namespace', [secret('key-secret', { stringData: { key: 'x' } }, 'globex')], 'SecretMissing'],
    ['a missing key', [secret('key-secret', { stringData: { other: 'x' } })], 'SecretKeyMissing'],
    ['an empty value', [secret('key-secret', { stringData: { key: '' } })], 'SecretValueEmpty'],
    ['a value of only white space', [secret('key-secret', { data: { key: Buffer.from('\n').toString('base64') } })], 'SecretValueEmpty'],
  ])('keeps a credential with %s out of the pool as not ready', (_, secrets, reason) => {
    const state = desiredState(resources({ credentials: [cred('key')], secrets }));
    expect(only(state.companies).credentials).toEqual([]);
    expect(condition(state, 'ProviderCredential', 'key')).toMatchObject({ ready: false, reason });
  });

  it('names the missing label when the referenced Secret exists without it (operator: Secrets read by label)', () => {
    const state = desiredState(resources({ credentials: [cred('key')], secrets: [] }), { secretLabel: { label: 'gw.io/secret=true', unlabelled: new Set(['acme/key-secret']) } });
    expect(only(state.companies).credentials).toEqual([]);
    expect(condition(state, 'ProviderCredential', 'key')).toMatchObject({ ready: false, reason: 'SecretNotLabelled' });
    expect(condition(state, 'ProviderCredential', 'key')?.message).toContain('gw.io/secret=true');
    // Another namespace's unlabelled Secret of that name changes nothing.
    const other = desiredState(resources({ credentials: [cred('key')], secrets: [] }), { secretLabel: { label: 'gw.io/secret=true', unlabelled: new Set(['globex/key-secret']) } });
    expect(condition(other, 'ProviderCredential', 'key')).toMatchObject({ ready: false, reason: 'SecretMissing' });
  });

  it('needs a base address for the local runtime (provider_d)', () => {
    const missing = desiredState(withSecret({ provider: 'provider_d' }));
    expect(only(missing.companies).credentials).toEqual([]);
    expect(condition(missing, 'ProviderCredential', 'key')).toMatchObject({ ready: false, reason: 'BaseUrlRequired' });
    const given = desiredState(withSecret({ provider: 'provider_d', baseUrl: 'http://127.0.0.1:11434/' }));
    expect(only(given.companies).credentials[0]).toMatchObject({ provider: 'provider_d', baseUrl: 'http://127.0.0.1:11434', authScheme: 'xApiKey' });
  });

  it('strips trailing slashes and keeps a base path', () => {
    const state = desiredState(withSecret({ baseUrl: 'https://proxy.internal/anthropic//' }));
    expect(only(state.companies).credentials[0]?.baseUrl).toBe('https://proxy.internal/anthropic');
  });

  it('sends subscription seats as bearer tokens and API keys per provider or as configured', () => {
    const auth = (spec: Partial<ProviderCredentialSpec>): string | undefined => only(desiredState(withSecret(spec)).companies).credentials[0]?.authScheme;
    expect(auth({ kind: 'subscriptionSeat' })).toBe('bearer');
    expect(auth({ kind: 'subscriptionSeat', authScheme: 'xApiKey' })).toBe('bearer');
    expect(auth({ provider: 'provider_a' })).toBe('bearer');
    expect(auth({ provider: 'provider_b' })).toBe('xApiKey');
    expect(auth({ provider: 'provider_c' })).toBe('bearer');
    expect(auth({ authScheme: 'bearer' })).toBe('bearer');
  });

  it('normalizes a model restriction and treats an empty one as none', () => {
    expect(only(desiredState(withSecret({ models: ['Claude-Sonnet-4.5', 'claude-haiku-4-5'] })).companies).credentials[0]?.models).toEqual(['claudesonnet45', 'claudehaiku45']);
    expect(only(desiredState(withSecret({ models: [] })).companies).credentials[0]?.models).toBeNull();
  });

  it('keeps given concurrency and priority', () => {
    expect(only(desiredState(withSecret({ maxConcurrency: 12, priority: -3 })).companies).credentials[0]).toMatchObject({ maxConcurrency: 12, priority: -3 });
  });

  it('orders credentials by name and ignores one being deleted', () => {
    const state = desiredState(
      resources({
        credentials: [cred('b'), cred('a'), cred('c', {}, { namespace: 'acme', ...DELETED })],
        secrets: ['a', 'b', 'c'].map((n) => secret(`${n}-secret`, { stringData: { key: n } })),
      }),
    );
    expect(only(state.companies).credentials.map((c) => c.name)).toEqual(['a', 'b']);
    expect(state.conditions.some((c) => c.name === 'c')).toBe(false);
  });
});

describe('desiredState: settings', () => {
  it('applies the one GatewaySettings of a namespace', () => {
    const state = desiredState(
      resources({ settings: [settings('s', { tokenDomain: 'acme.example', repositoryAttribution: true, models: { provider_a: { enabled: ['*', 'Anthropic/Claude-Sonnet-4.5'] } } })] }),
    );
    expect(only(state.companies).settings).toMatchObject({
      company: 'acme',
      tokenDomain: 'acme.example',
      repositoryAttribution: true,
      enabledModels: { provider_a: ['*', 'anthropic/claudesonnet45'] },
    });
    expect(condition(state, 'GatewaySettings', 's').ready).toBe(true);
  });

  it('flags both of two GatewaySettings in one namespace and applies the defaults meanwhile', () => {
    const state = desiredState(
      resources({
        settings: [settings('one', { tokenDomain: 'one.example', repositoryAttribution: true }), settings('two', { tokenDomain: 'two.example', endUserRecording: true })],
        tokens: [token('ci', { tokenHash: HASH_A })],
      }),
    );
    for (const name of ['one', 'two']) expect(condition(state, 'GatewaySettings', name)).toMatchObject({ ready: false, reason: 'SettingsConflict' });
    const company = only(state.companies);
    expect(company.settings).toMatchObject({ tokenDomain: 'acme', repositoryAttribution: false, endUserRecording: false, callerCap: SETTINGS_DEFAULTS.callerCap });
    expect(company.tokens[0]?.address).toBe('ci@acme');
  });

  it('refuses invalid settings with a reason naming the field, and keeps the settings in force meanwhile', () => {
    const bad = settings('s', { tokenDomain: 'new.example', spendLimits: { timeZone: 'Mars/Olympus' } });
    const inForce = desiredState(resources({ settings: [settings('s', { tokenDomain: 'old.example', spendLimits: { timeZone: 'Europe/Paris', company: [{ window: 'daily', usd: 9 }] } })] }))
      .companies[0]!.settings;
    const state = desiredState(resources({ settings: [bad] }), { lastValidSettings: (c) => (c === 'acme' ? inForce : undefined) });
    expect(state.companies[0]?.settings).toEqual(inForce);
    const c = condition(state, 'GatewaySettings', 's');
    expect(c.ready).toBe(false);
    expect(c.reason).toBe('InvalidSettings');
    expect(c.message).toContain('spec.spendLimits.timeZone: "Mars/Olympus" is not an IANA time zone');
    expect(c.message).toContain('last valid settings stay in force');
    // Nothing in force yet: defaults, never the invalid values.
    const fresh = desiredState(resources({ settings: [bad] }));
    expect(fresh.companies[0]?.settings.timeZone).toBe('UTC');
    expect(fresh.companies[0]?.settings.tokenDomain).toBe('acme');
  });

  it('ignores a GatewaySettings being deleted, so the other one applies', () => {
    const state = desiredState(resources({ settings: [settings('old', { tokenDomain: 'old.example' }, { namespace: 'acme', ...DELETED }), settings('new', { tokenDomain: 'new.example' })] }));
    expect(only(state.companies).settings.tokenDomain).toBe('new.example');
    expect(state.conditions.map((c) => c.name)).toEqual(['new']);
  });
});

describe('desiredState: namespaces', () => {
  it('keeps each namespace a company of its own, sorted, with only its own resources and Secrets', () => {
    const state = desiredState(
      resources({
        settings: [settings('s', { tokenDomain: 'globex.example' }, { namespace: 'globex' })],
        tokens: [token('ci', { tokenHash: HASH_A }), token('ci', { tokenHash: HASH_B }, { namespace: 'globex' })],
        credentials: [cred('key'), cred('key', {}, { namespace: 'globex' })],
        secrets: [secret('key-secret', { stringData: { key: 'acme-secret' } }), secret('key-secret', { stringData: { key: 'globex-secret' } }, 'globex')],
      }),
    );
    expect(state.companies.map((c) => c.company)).toEqual(['acme', 'globex']);
    const [acme, globex] = state.companies;
    expect(acme?.tokens).toEqual([{ hash: HASH_A, company: 'acme', name: 'ci', address: 'ci@acme' }]);
    expect(globex?.tokens).toEqual([{ hash: HASH_B, company: 'globex', name: 'ci', address: 'ci@globex.example' }]);
    expect(acme?.credentials.map((c) => [c.company, c.secret])).toEqual([['acme', 'acme-secret']]);
    expect(globex?.credentials.map((c) => [c.company, c.secret])).toEqual([['globex', 'globex-secret']]);
  });

  it('puts resources without a namespace in "default"', () => {
    const state = desiredState(resources({ tokens: [token('ci', { tokenHash: HASH_A }, {})] }));
    expect(only(state.companies).company).toBe('default');
  });

  it('makes no company of a namespace with only Secrets or only resources being deleted', () => {
    const state = desiredState(
      resources({
        tokens: [token('gone', { tokenHash: HASH_A }, { namespace: 'old', ...DELETED })],
        secrets: [secret('s', { stringData: { k: 'v' } }, 'lonely')],
      }),
    );
    expect(state).toEqual({ companies: [], conditions: [] });
  });

  it('gives the same records for the same resources in any order', () => {
    const input = resources({
      tokens: [token('b', { tokenHash: HASH_B }), token('a', { tokenHash: HASH_A }, { namespace: 'z' })],
      credentials: [cred('y'), cred('x')],
      secrets: [secret('x-secret', { stringData: { key: 'x' } }), secret('y-secret', { stringData: { key: 'y' } })],
    });
    const reversed = resources({ tokens: [...input.tokens].reverse(), credentials: [...input.credentials].reverse(), secrets: [...input.secrets].reverse() });
    expect(desiredState(reversed)).toEqual(desiredState(input));
  });
});
