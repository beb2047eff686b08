import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { CoordinationV1Api, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generateToken, hashToken, isWellFormedToken } from '../../../src/auth/token.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadResources } from '../../../src/config/load-resources.js';
import { kubeClients } from '../../../src/operator/kube-client.js';
import { electionTiming, LeaderElector } from '../../../src/operator/leader-election.js';
import { kubeLeaseStore } from '../../../src/operator/lease-store.js';
import { randomBytes } from 'node:crypto';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { GW_BIN } from '../../support/gateway-process.js';
import { startOperator } from '../../support/operator-process.js';
import { startRedis } from '../../support/redis-server.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { create, createNamespace, eventually, get, gwObject, installCrds, kubeFor, patchSpec, raw, rejection, waitForReady, type Kube, type Obj } from './kube-helpers.js';

// The CRDs, the gw token CLI and the Lease API against one real API server;
// the only operator started here watches one namespace.
const START_TIMEOUT_MS = 45 * 60_000;
const NS = 'schemas';

let server: KubeApiServer;
let kube: Kube;
let crds: V1CustomResourceDefinition[];

beforeAll(async () => {
  server = await startKubeApiServer();
  kube = kubeFor(server);
  crds = await installCrds(kube);
  await createNamespace(kube, NS);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
});

/** A list as `kubectl get` asks for it: a Table with the CRD's printer columns. */
function table(plural: string, namespace: string): Promise<{ columnDefinitions: Array<{ name: string; priority?: number }>; rows: Array<{ cells: unknown[] }> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/apis/gw.io/v1alpha1/namespaces/${namespace}/${plural}`, {
      ca: readFileSync(server.caFile),
      headers: { authorization: `Bearer ${server.token}`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${res.statusCode}: ${body}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same document through the file loader of `gw serve` (the same schemas): its problems, or [] when it loads. */
function fileProblems(doc: Obj): readonly string[] {
  try {
    loadResources(stringify(doc), {});
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

function gw(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [GW_BIN, ...args], { env: { ...process.env, KUBECONFIG: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('CRDs on a real API server', () => {
  it('are accepted as structural schemas, Established, with short names and the status subresource', () => {
    expect(crds.map((c) => c.metadata?.name).sort()).toEqual(['gatewaysettings.gw.io', 'gatewaytokens.gw.io', 'providercredentials.gw.io']);
    for (const crd of crds) {
      const conditions = crd.status?.conditions ?? [];
      expect(conditions.find((c) => c.type === 'Established')?.status).toBe('True');
      expect(conditions.find((c) => c.type === 'NonStructuralSchema')).toBeUndefined();
      expect(crd.spec.versions[0]?.subresources?.status).toEqual({});
    }
    expect(Object.fromEntries(crds.map((c) => [c.spec.names.kind, c.status?.acceptedNames?.shortNames]))).toEqual({ GatewaySettings: ['gws'], GatewayToken: ['gwt'], ProviderCredential: ['gwpc'] });
  });

  it('kubectl get gatewaytokens shows address, revoked, ready and age', async () => {
    await create(kube, gwObject('GatewayToken', NS, 'shown', { tokenHash: hashToken(generateToken()) }));
    const t = await table('gatewaytokens', NS);
    expect(t.columnDefinitions.filter((c) => !c.priority).map((c) => c.name)).toEqual(['Name', 'Address', 'Revoked', 'Ready', 'Age']);
    const row = t.rows.find((r) => r.cells[0] === 'shown');
    // Revoked is defaulted by the schema; Address and Ready come from the operator (none runs here).
    expect(row?.cells.slice(0, 3)).toEqual(['shown', null, false]);
  });

  it('kubectl explain has a description for every field: the published OpenAPI v3 of gw.io describes each property', async () => {
    const res = await raw(kube, 'GET', '/openapi/v3/apis/gw.io/v1alpha1');
    expect(res.status).toBe(200);
    const schemas = (JSON.parse(res.body) as { components: { schemas: Record<string, Schema> } }).components.schemas;
    type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: Schema | boolean; allOf?: Schema[]; $ref?: string };
    const missing: string[] = [];
    let described = 0;
    const walk = (schema: Schema | undefined, path: string): void => {
      // metadata is the API server's ObjectMeta: its fields are described by Kubernetes, and a CRD may not say more.
      if (!schema || schema.$ref || path.endsWith('.metadata')) return;
      if (!schema.description && !schema.allOf?.some((s) => s.$ref)) missing.push(path);
      else described++;
      for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, `${path}.${k}`);
      walk(schema.items, `${path}[]`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${path}{}`);
    };
    for (const kind of ['GatewayToken', 'ProviderCredential', 'GatewaySettings']) {
      const entry = Object.entries(schemas).find(([name]) => name.endsWith(`gw.v1alpha1.${kind}`));
      expect(entry, kind).toBeDefined();
      walk(entry?.[1], kind);
    }
    expect(missing).toEqual([]);
    expect(described).toBeGreaterThan(100);
  });

  it('kubectl get providercredentials shows provider, kind, ready, reason, healthy and age', async () => {
    await create(kube, gwObject('ProviderCredential', NS, 'columns', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 's', key: 'k' } }));
    const t = await table('providercredentials', NS);
    expect(t.columnDefinitions.filter((c) => !c.priority).map((c) => c.name)).toEqual(['Name', 'Provider', 'Kind', 'Ready', 'Reason', 'Healthy', 'Age']);
  });

  it('applies the schema defaults', async () => {
    const token = await create(kube, gwObject('GatewayToken', NS, 'defaults', {}));
    expect(token.spec).toEqual({ revoked: false });
    const cred = await create(kube, gwObject('ProviderCredential', NS, 'defaults', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 's', key: 'k' } }));
    expect(cred.spec).toMatchObject({ maxConcurrency: 4, priority: 0 });
  });

  const bad: Array<{ what: string; doc: Obj; server: string; file: string }> = [
    {
      what: 'a provider outside the enum',
      doc: gwObject('ProviderCredential', NS, 'bad-provider', { provider: 'provider_z', kind: 'apiKey', secretRef: { name: 's', key: 'k' } }),
      server: 'spec.provider: Unsupported value: "provider_z"',
      file: '/spec/provider must be equal to one of the allowed values',
    },
    {
      what: 'a tokenHash that is not sha256:<64 hex>',
      doc: gwObject('GatewayToken', NS, 'bad-hash', { tokenHash: 'sha256:XYZ' }),
      server: 'spec.tokenHash in body should match',
      file: '/spec/tokenHash must match pattern',
    },
    {
      what: 'a plain-text token in place of its hash',
      doc: gwObject('GatewayToken', NS, 'plain-token', { tokenHash: generateToken() }),
      server: 'spec.tokenHash in body should match',
      file: '/spec/tokenHash must match pattern',
    },
    {
      what: 'a credential without secretRef',
      doc: gwObject('ProviderCredential', NS, 'no-secret', { provider: 'vendor', kind: 'apiKey' }),
      server: 'spec.secretRef: Required value',
      file: "/spec must have required property 'secretRef'",
    },
    {
      what: 'a secretRef without key',
      doc: gwObject('ProviderCredential', NS, 'no-key', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 's' } }),
      server: 'spec.secretRef.key: Required value',
      file: "/spec/secretRef must have required property 'key'",
    },
    {
      what: 'a kind outside the enum',
      doc: gwObject('ProviderCredential', NS, 'bad-kind', { provider: 'vendor', kind: 'password', secretRef: { name: 's', key: 'k' } }),
      server: 'spec.kind: Unsupported value: "password"',
      file: '/spec/kind must be equal to one of the allowed values',
    },
    {
      what: 'a spend limit window outside the enum',
      doc: gwObject('GatewaySettings', NS, 'bad-window', { spendLimits: { company: [{ window: 'hourly', usd: 5 }] } }),
      server: 'spec.spendLimits.company[0].window: Unsupported value: "hourly"',
      file: '/spec/spendLimits/company/0/window must be equal to one of the allowed values',
    },
  ];

  for (const c of bad) {
    it(`rejects ${c.what}, and gw serve's file loader rejects the same document`, async () => {
      const refused = await rejection(create(kube, c.doc));
      expect(refused.code).toBe(422);
      expect(refused.message).toContain(c.server);
      expect(fileProblems(c.doc).join('\n')).toContain(c.file);
    });
  }

  it('rejects an unknown field under strict field validation, as the file loader does', async () => {
    const doc = gwObject('GatewayToken', NS, 'unknown-field', { tokenHash: hashToken(generateToken()), owner: 'someone' });
    const refused = await rejection(create(kube, doc));
    expect(refused.code).toBe(400);
    expect(refused.message).toContain('unknown field "spec.owner"');
    expect(fileProblems(doc).join('\n')).toContain('must NOT have additional properties (owner)');
  });

  it('accepts what the file loader accepts', async () => {
    const doc = gwObject('GatewaySettings', NS, 'full', {
      tokenDomain: 'acme.example',
      repositoryAttribution: true,
      models: { provider_a: { enabled: ['*'] } },
      spendLimits: { timeZone: 'Europe/Paris', perToken: [{ window: 'daily', usd: 5 }], company: [{ window: 'monthly', usd: 500 }] },
      callerConcurrency: { default: 4, queueWaitSeconds: 2, overrides: { ci: 8 } },
      prices: { 'my-model': { input: 1, output: 2 } },
    });
    expect(fileProblems(doc)).toEqual([]);
    const created = await create(kube, doc);
    expect(created.spec).toMatchObject(doc.spec);
  });

  it('[S3-d] [S3-e] keeps a token hash immutable and a revocation final (rotation is create-new-then-revoke-old)', async () => {
    await create(kube, gwObject('GatewayToken', NS, 'fixed', { tokenHash: hashToken(generateToken()) }));
    const changed = await rejection(patchSpec(kube, 'GatewayToken', NS, 'fixed', { tokenHash: hashToken(generateToken()) }));
    expect(changed.code).toBe(422);
    expect(changed.message).toContain('tokenHash cannot be added, changed or removed');
    const dropped = await rejection(patchSpec(kube, 'GatewayToken', NS, 'fixed', { tokenHash: null }));
    expect(dropped.message).toContain('tokenHash cannot be added, changed or removed');
    await create(kube, gwObject('GatewayToken', NS, 'generated', {}));
    const added = await rejection(patchSpec(kube, 'GatewayToken', NS, 'generated', { tokenHash: hashToken(generateToken()) }));
    expect(added.message).toContain('tokenHash cannot be added, changed or removed');

    await patchSpec(kube, 'GatewayToken', NS, 'fixed', { revoked: true, displayName: 'old laptop' });
    const unrevoked = await rejection(patchSpec(kube, 'GatewayToken', NS, 'fixed', { revoked: false }));
    expect(unrevoked.code).toBe(422);
    expect(unrevoked.message).toContain('a revoked token stays revoked');
    // Other fields of a revoked token stay editable.
    expect((await patchSpec(kube, 'GatewayToken', NS, 'fixed', { displayName: 'retired' })).spec.displayName).toBe('retired');
  });
});

describe('gw token create / revoke against the cluster', () => {
  it('[S2.1-b] [S3-a] [S5-f] create generates the token locally, stores only its hash and prints the value once', async () => {
    const out = await gw(['token', 'create', 'alice', '-n', NS, '--display-name', "Alice's laptop", '--kubeconfig', server.kubeconfigPath]);
    expect(out.code).toBe(0);
    const token = /^token: (\S+)$/m.exec(out.stdout)?.[1] as string;
    expect(isWellFormedToken(token)).toBe(true);
    expect(out.stdout).toContain(`hash:  ${hashToken(token)}`);
    expect(out.stderr).toContain('shown once');
    const obj = await get(kube, 'GatewayToken', NS, 'alice');
    expect(obj?.spec).toEqual({ displayName: "Alice's laptop", tokenHash: hashToken(token), revoked: false });
    expect(JSON.stringify(obj)).not.toContain(token);
  });

  it('create takes the namespace from the kubeconfig context and KUBECONFIG when not given', async () => {
    const out = await gw(['token', 'create', 'from-context'], { KUBECONFIG: server.kubeconfigPath });
    expect(out.code).toBe(0);
    expect(await get(kube, 'GatewayToken', 'default', 'from-context')).not.toBeNull();
  });

  it('create refuses to replace an existing token and says how to rotate', async () => {
    const before = await get(kube, 'GatewayToken', NS, 'alice');
    const out = await gw(['token', 'create', 'alice', '-n', NS, '--kubeconfig', server.kubeconfigPath]);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('already exists');
    expect(out.stderr).toContain(`gw token revoke alice -n ${NS}`);
    expect((await get(kube, 'GatewayToken', NS, 'alice'))?.spec.tokenHash).toBe(before?.spec.tokenHash);
  });

  it('revoke sets spec.revoked; an unknown name, a missing namespace or a bad name is an error', async () => {
    const out = await gw(['token', 'revoke', 'alice', '-n', NS, '--kubeconfig', server.kubeconfigPath]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('revoked');
    expect((await get(kube, 'GatewayToken', NS, 'alice'))?.spec.revoked).toBe(true);

    const missing = await gw(['token', 'revoke', 'nobody', '-n', NS, '--kubeconfig', server.kubeconfigPath]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`no GatewayToken ${NS}/nobody`);
    const noNamespace = await gw(['token', 'create', 'x', '-n', 'not-there', '--kubeconfig', server.kubeconfigPath]);
    expect(noNamespace.code).toBe(1);
    expect(noNamespace.stdout).toBe('');
    const badName = await gw(['token', 'create', 'Not_A_Name', '-n', NS, '--kubeconfig', server.kubeconfigPath]);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('DNS-1123');
  });
});

describe('leader election on the coordination.k8s.io/v1 Lease API', () => {
  const clients = () => kubeClients(kube.kc);
  const quiet = { onStartedLeading: () => undefined, onStoppedLeading: () => undefined };

  it('creates the Lease, renews it, and lets a second candidate in only after it is released', async () => {
    const store = () => kubeLeaseStore(clients(), 'default', 'election-a');
    const timing = electionTiming(30);
    const one = new LeaderElector(store(), 'one', timing, { now: Date.now }, quiet);
    const two = new LeaderElector(store(), 'two', timing, { now: Date.now }, quiet);
    expect(await one.tryAcquireOrRenew()).toBe('held');
    const lease = await kube.kc.makeApiClient(CoordinationV1Api).readNamespacedLease({ namespace: 'default', name: 'election-a' });
    expect(lease.spec).toMatchObject({ holderIdentity: 'one', leaseDurationSeconds: 30, leaseTransitions: 0 });
    expect(String(lease.spec?.renewTime instanceof Date ? lease.spec.renewTime.toISOString() : lease.spec?.renewTime)).toMatch(/Z$/);
    expect(await two.tryAcquireOrRenew()).toBe('other');
    expect(await one.tryAcquireOrRenew()).toBe('held');
    expect(await two.tryAcquireOrRenew()).toBe('other');

    await one.step();
    expect(one.isLeader()).toBe(true);
    await one.stop(true);
    expect(await two.tryAcquireOrRenew()).toBe('held');
    const after = await store().get();
    expect(after?.record).toMatchObject({ holderIdentity: 'two', leaseTransitions: 1 });
  });

  it('takes over a Lease nobody renews after the lease duration, and exactly one of two racing candidates wins', async () => {
    const store = () => kubeLeaseStore(clients(), 'default', 'election-b');
    const timing = electionTiming(2);
    const dead = new LeaderElector(store(), 'dead', timing, { now: Date.now }, quiet);
    expect(await dead.tryAcquireOrRenew()).toBe('held');
    // The candidates' clocks move past the lease duration instead of the test sleeping through it.
    let skewMs = 0;
    const later = { now: () => Date.now() + skewMs };
    const x = new LeaderElector(store(), 'x', timing, later, quiet);
    const y = new LeaderElector(store(), 'y', timing, later, quiet);
    expect(await x.tryAcquireOrRenew()).toBe('other');
    expect(await y.tryAcquireOrRenew()).toBe('other');
    skewMs = 2_200;
    // Both see the expired record and write at once: the resourceVersion lets one through, and the
    // other either loses the write (failed) or already reads the winner's record (other).
    const results = await Promise.all([x.tryAcquireOrRenew(), y.tryAcquireOrRenew()]);
    expect(results.filter((r) => r === 'held')).toHaveLength(1);
    const holder = (await store().get())?.record.holderIdentity;
    expect(['x', 'y']).toContain(holder);
    expect(await dead.tryAcquireOrRenew()).toBe('other');
  });
});

describe('gw operator --namespace', () => {
  it('watches and writes one namespace only, and leaves every other one alone', { timeout: 90_000 }, async () => {
    const key = randomBytes(32).toString('base64');
    const redis = await startRedis();
    const reader = new RedisState(connectRedis(redis.url), SecretBox.fromBase64(key));
    await createNamespace(kube, 'scoped-in');
    await createNamespace(kube, 'scoped-out');
    const operator = await startOperator({
      kubeconfig: server.kubeconfigPath,
      redisUrl: redis.url,
      encryptionKey: key,
      identity: 'scoped',
      args: ['--namespace', 'scoped-in', '--lease-duration-seconds', '4'],
    });
    try {
      await eventually('scoped operator leads', async () => (await operator.metric('gw_operator_leader')) === 1);
      const inside = generateToken();
      const outside = generateToken();
      await create(kube, gwObject('GatewayToken', 'scoped-out', 'outside', { tokenHash: hashToken(outside) }));
      await create(kube, gwObject('GatewayToken', 'scoped-in', 'inside', { tokenHash: hashToken(inside) }));
      await waitForReady(kube, 'GatewayToken', 'scoped-in', 'inside', { status: 'True' });
      expect((await reader.findToken(hashToken(inside)))?.company).toBe('scoped-in');
      // The Lease lives in the watched namespace when nothing else is said.
      expect(await kubeClients(kube.kc).coordination.readNamespacedLease({ namespace: 'scoped-in', name: 'gw-operator' })).toBeDefined();
      const untouched = await get(kube, 'GatewayToken', 'scoped-out', 'outside');
      expect(untouched?.status).toBeUndefined();
      expect(untouched?.metadata.finalizers).toBeUndefined();
      expect(await reader.findToken(hashToken(outside))).toBeNull();
      expect(await reader.listCompanies()).toEqual(['scoped-in']);
    } finally {
      await operator.stop('SIGTERM');
      await reader.close();
      await redis.destroy();
    }
  });
});
