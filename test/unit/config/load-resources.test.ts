import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/token.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadResources } from '../../../src/config/load-resources.js';

const HASH = hashToken('gwct_example');

const SETTINGS = `
apiVersion: gw.io/v1alpha1
kind: GatewaySettings
metadata: { name: settings, namespace: acme }
spec:
  tokenDomain: acme.example
  repositoryAttribution: true
`;
const TOKEN = `
apiVersion: gw.io/v1alpha1
kind: GatewayToken
metadata: { name: ci, namespace: acme }
spec:
  displayName: CI pipeline
  tokenHash: ${HASH}
`;
const CREDENTIAL = `
apiVersion: gw.io/v1alpha1
kind: ProviderCredential
metadata: { name: vendor-key, namespace: acme }
spec:
  provider: vendor
  kind: apiKey
  secretRef: { name: vendor-key, key: apiKey }
`;
const SECRET = `
apiVersion: v1
kind: Secret
metadata: { name: vendor-key, namespace: acme }
stringData:
  apiKey: sk-ant-api03-example
`;

function docs(...parts: string[]): string {
  return parts.join('\n---\n');
}

function problemsOf(text: string, env: NodeJS.ProcessEnv = {}): readonly string[] {
  try {
    loadResources(text, env, 'gateway.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect((error as ConfigError).message).toContain(`configuration has ${problems.length} problem(s)`);
    return problems;
  }
  throw new Error('no ConfigError');
}

describe('loadResources', () => {
  it('refuses what the schema cannot check, naming each field: an unknown time zone, two limits for one window, a malformed model id', () => {
    const bad = `
apiVersion: gw.io/v1alpha1
kind: GatewaySettings
metadata: { name: settings, namespace: acme }
spec:
  models:
    provider_a: { enabled: ['provider_a:some/model', '*'] }
  spendLimits:
    timeZone: Mars/Olympus
    perToken: [{ window: daily, usd: 5 }, { window: daily, usd: 50 }]
`;
    const problems = problemsOf(docs(bad, TOKEN));
    expect(problems).toEqual([
      'gateway.yaml document 1 (GatewaySettings settings): spec.spendLimits.timeZone: "Mars/Olympus" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)',
      'gateway.yaml document 1 (GatewaySettings settings): spec.spendLimits.perToken[1].window: a second daily limit contradicts spec.spendLimits.perToken[0]; keep one per window',
      'gateway.yaml document 1 (GatewaySettings settings): spec.models.provider_a.enabled[0]: "provider_a:some/model" carries a provider prefix; name the model as that provider knows it, under that provider',
    ]);
    // Real zones pass, whatever their spelling in the database.
    for (const zone of ['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'])
      expect(() => loadResources(SETTINGS.replace('repositoryAttribution: true', `spendLimits: { timeZone: ${zone} }`))).not.toThrow();
  });

  it('reads a valid multi-document file into its four kinds', () => {
    const set = loadResources(docs(SETTINGS, TOKEN, CREDENTIAL, SECRET), {});
    expect(set.settings.map((s) => s.metadata.name)).toEqual(['settings']);
    expect(set.tokens.map((t) => t.spec.tokenHash)).toEqual([HASH]);
    expect(set.credentials.map((c) => c.spec.secretRef)).toEqual([{ name: 'vendor-key', key: 'apiKey' }]);
    expect(set.secrets.map((s) => s.stringData)).toEqual([{ apiKey: 'sk-ant-api03-example' }]);
  });

  it('applies the defaults of the CRD schemas', () => {
    const set = loadResources(docs(SETTINGS.replace('  repositoryAttribution: true\n', '  spendLimits: {}\n  callerConcurrency: {}\n'), TOKEN, CREDENTIAL), {});
    expect(set.tokens[0]?.spec.revoked).toBe(false);
    expect(set.credentials[0]?.spec).toMatchObject({ maxConcurrency: 4, priority: 0 });
    expect(set.settings[0]?.spec).toMatchObject({
      repositoryAttribution: false,
      endUserRecording: false,
      secretScanning: false,
      traceContextToProvider: false,
      spendLimits: { timeZone: 'UTC', refuseUnpriced: false },
      callerConcurrency: { default: 16, queueWaitSeconds: 5 },
    });
  });

  it('accepts a document without a spec where the schema allows it', () => {
    const set = loadResources('apiVersion: gw.io/v1alpha1\nkind: GatewayToken\nmetadata: { name: pending }\n', {});
    expect(set.tokens[0]?.spec).toEqual({ revoked: false });
  });

  it('skips empty documents', () => {
    expect(loadResources(`---\n${TOKEN}\n---\n---\n# only a comment\n`, {}).tokens).toHaveLength(1);
  });

  it('expands ${VAR} inside string values, not in the raw text', () => {
    const credential = CREDENTIAL.replace('  kind: apiKey', '  kind: apiKey\n  baseUrl: ${BASE}/anthropic');
    const secret = SECRET.replace('sk-ant-api03-example', '"${KEY}: and more"');
    const set = loadResources(docs(credential, secret), { BASE: 'https://proxy.internal', KEY: 'value with: colon # and hash' });
    expect(set.credentials[0]?.spec.baseUrl).toBe('https://proxy.internal/anthropic');
    expect(set.secrets[0]?.stringData?.apiKey).toBe('value with: colon # and hash: and more');
  });

  it('reports every problem of the file together', () => {
    const problems = problemsOf(
      docs(
        'apiVersion: gw.io/v1alpha1\nkind: GatewayWidget\nmetadata: { name: w }\n',
        TOKEN.replace('gw.io/v1alpha1', 'gw.io/v1'),
        CREDENTIAL.replace('provider: vendor', 'provider: provider_z'),
        TOKEN.replace('name: ci', 'name: other').replace(HASH, 'md5:abc'),
        SETTINGS.replace('  repositoryAttribution: true', '  colour: blue'),
        SECRET.replace('sk-ant-api03-example', '${MISSING_KEY}'),
        TOKEN,
        'apiVersion: gw.io/v1alpha1\nkind: GatewayToken\nmetadata: { name: broken\nspec: {}\n',
      ),
    );
    const expected = [
      /^gateway\.yaml document 1 \(GatewayWidget w\): kind must be one of GatewaySettings, GatewayToken, ProviderCredential, Secret$/,
      /^gateway\.yaml document 2 \(GatewayToken ci\): apiVersion must be gw\.io\/v1alpha1$/,
      /^gateway\.yaml document 3 \(ProviderCredential vendor-key\): \/spec\/provider must be equal to one of the allowed values \(vendor, provider_a, provider_b, provider_c, provider_d\)$/,
      /^gateway\.yaml document 4 \(GatewayToken other\): \/spec\/tokenHash must match pattern/,
      /^gateway\.yaml document 5 \(GatewaySettings settings\): \/spec must NOT have additional properties \(colour\)$/,
      /^gateway\.yaml document 6\.stringData\.apiKey: environment variable MISSING_KEY is not set$/,
      /^gateway\.yaml document 7 \(GatewayToken ci\): defined twice$/,
      /^gateway\.yaml document 8: YAML /,
    ];
    for (const pattern of expected)
      expect(
        problems.some((p) => pattern.test(p)),
        `${pattern} in\n${problems.join('\n')}`,
      ).toBe(true);
    expect(problems).toHaveLength(expected.length);
  });

  it('names the field path of a missing environment variable', () => {
    expect(problemsOf(SECRET.replace('sk-ant-api03-example', 'a-${A}-${B}'), { A: 'x' })).toEqual(['gateway.yaml document 1.stringData.apiKey: environment variable B is not set']);
  });

  it.each([
    ['a missing required field', CREDENTIAL.replace('  kind: apiKey\n', ''), /\/spec must have required property 'kind'/],
    ['a wrong type', CREDENTIAL + '  maxConcurrency: many\n', /\/spec\/maxConcurrency must be integer/],
    ['a value out of range', CREDENTIAL + '  priority: 5000\n', /\/spec\/priority must be <= 1000/],
    ['a bad base address', CREDENTIAL + '  baseUrl: ftp://x\n', /\/spec\/baseUrl must match pattern/],
    [
      'a bad spend window',
      SETTINGS + '  spendLimits: { perToken: [{ window: hourly, usd: 5 }] }\n',
      /\/spec\/spendLimits\/perToken\/0\/window must be equal to one of the allowed values \(daily, weekly, monthly\)/,
    ],
    ['an unknown top-level field', TOKEN + 'extra: 1\n', /\/ must NOT have additional properties \(extra\)/],
    ['a name that is not DNS-1123', TOKEN.replace('name: ci', 'name: CI_Token'), /metadata\.name must be a DNS-1123 name/],
    ['a missing name', TOKEN.replace('name: ci, ', ''), /metadata\.name must be a DNS-1123 name/],
    ['a bad namespace', TOKEN.replace('namespace: acme', 'namespace: Acme'), /metadata\.namespace must be a DNS-1123 name/],
    ['a Secret with another apiVersion', SECRET.replace('apiVersion: v1', 'apiVersion: v2'), /\(Secret vendor-key\): apiVersion must be v1/],
    ['a Secret with a non-string value', SECRET + '  port: 5432\n', /stringData must map keys to strings/],
    ['a document that is a list', '- a\n- b\n', /expected a mapping with apiVersion, kind, metadata/],
    ['a document that is a scalar', 'hello\n', /expected a mapping with apiVersion, kind, metadata/],
  ])('reports %s', (_, text, pattern) => {
    const problems = problemsOf(text);
    expect(
      problems.some((p) => pattern.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });

  it('treats the same name in different namespaces or kinds as different documents', () => {
    const set = loadResources(docs(TOKEN, TOKEN.replace('namespace: acme', 'namespace: globex'), SECRET.replace('name: vendor-key', 'name: ci')), {});
    expect(set.tokens).toHaveLength(2);
  });

  it('counts a document without a namespace as the default namespace when checking duplicates', () => {
    const noNs = TOKEN.replace(', namespace: acme', '');
    expect(problemsOf(docs(noNs, TOKEN.replace('namespace: acme', 'namespace: default')))).toEqual([expect.stringMatching(/document 2 \(GatewayToken ci\): defined twice/)]);
  });
});
