import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { startOperator, startReaderGateway, type OperatorProcess, type ReaderGateway } from '../../support/operator-process.js';
import { waitForOutput } from '../../support/gateway-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { create, createNamespace, eventually, get, gwObject, installCrds, kubeFor, patchSpec, putSecret, ready, remove, waitForReady, type Kube } from './kube-helpers.js';

// Operator safety on a real kube-apiserver + etcd + Redis: a revoked hash
// never comes back, a paused leader cannot write, a lost Redis is rebuilt
// and answered with 503 meanwhile. Resync is slow on purpose (60 s), so
// nothing here is repaired by the periodic resync.
const START_TIMEOUT_MS = 45 * 60_000;
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const LEASE_SECONDS = 2;

let server: KubeApiServer;
let kube: Kube;
let redis: TestRedis;
let reader: RedisState;
let gateway: ReaderGateway;
let mock: MockProvider;
const running: OperatorProcess[] = [];
let namespaceCount = 0;

async function replica(identity: string): Promise<OperatorProcess> {
  const p = await startOperator({
    kubeconfig: server.kubeconfigPath,
    redisUrl: redis.url,
    encryptionKey: ENCRYPTION_KEY,
    identity,
    args: ['--lease-namespace', 'default', '--lease-name', 'gw-safety', '--lease-duration-seconds', String(LEASE_SECONDS), '--resync-seconds', '60'],
  });
  running.push(p);
  return p;
}

async function leader(): Promise<OperatorProcess> {
  return eventually(
    'a leader',
    async () => {
      for (const p of running) {
        if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
        if ((await p.metric('gw_operator_leader').catch(() => 0)) === 1) return p;
      }
      return undefined;
    },
    30_000,
    100,
  );
}

beforeAll(async () => {
  server = await startKubeApiServer();
  kube = kubeFor(server);
  await installCrds(kube);
  redis = await startRedis();
  reader = new RedisState(connectRedis(redis.url), SecretBox.fromBase64(ENCRYPTION_KEY));
  await reader.ready();
  mock = await startMockProvider();
  await replica('safety-a');
  gateway = await startReaderGateway(redis.url, ENCRYPTION_KEY);
}, START_TIMEOUT_MS);

afterAll(async () => {
  for (const p of running) {
    p.child.kill('SIGCONT');
    await p.stop('SIGKILL');
  }
  await gateway?.stop('SIGKILL');
  await mock?.close();
  await reader?.close();
  await redis?.destroy();
  await server?.stop();
});

/** A company with settings and a credential on the mock provider, so a live token gets 200. */
async function company(): Promise<string> {
  const ns = `safe-${++namespaceCount}-${randomBytes(2).toString('hex')}`;
  await createNamespace(kube, ns);
  await create(kube, gwObject('GatewaySettings', ns, 'settings', { tokenDomain: `${ns}.example` }));
  await putSecret(kube, ns, 'key', { key: 'sk-ant-safety' });
  await create(kube, gwObject('ProviderCredential', ns, 'vendor', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'key', key: 'key' }, baseUrl: mock.url }));
  return ns;
}

async function status(token: string): Promise<number> {
  try {
    return await statusOnce(token);
  } catch {
    // A keep-alive connection the server closed as it was reused: ask once more on a new one.
    return statusOnce(token);
  }
}

async function statusOnce(token: string): Promise<number> {
  const res = await fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status;
}

async function fault(token: string): Promise<{ status: number; fault: string | null }> {
  const res = await fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return { status: res.status, fault: res.headers.get('x-gw-fault') };
}

async function events(ns: string, name: string): Promise<Array<{ reason?: string; type?: string; message?: string }>> {
  const list = await kube.core.listNamespacedEvent({ namespace: ns, fieldSelector: `involvedObject.name=${name}` });
  return list.items.map((e) => ({ reason: e.reason, type: e.type, message: e.message }));
}

async function redisGet(key: string): Promise<string | null> {
  const raw = new Redis(redis.url);
  try {
    return await raw.get(key);
  } finally {
    raw.disconnect();
  }
}

async function gone(ns: string, name: string): Promise<void> {
  await remove(kube, 'GatewayToken', ns, name);
  await eventually(`${ns}/${name} deleted`, async () => (await get(kube, 'GatewayToken', ns, name)) === null);
}

describe('a revoked token never authenticates again', () => {
  it('refuses the hash on another token of the same namespace and of another one (HashRevoked, an Event), and the token stays 401', { timeout: 90_000 }, async () => {
    const ns = await company();
    const other = await company();
    const token = generateToken();
    const hash = hashToken(token);
    await create(kube, gwObject('GatewayToken', ns, 'a', { tokenHash: hash }));
    await eventually('token A serves', async () => (await status(token)) === 200, 20_000, 100);
    await patchSpec(kube, 'GatewayToken', ns, 'a', { revoked: true });
    await eventually('token A is 401', async () => (await status(token)) === 401, 20_000, 50);

    await create(kube, gwObject('GatewayToken', ns, 'b', { tokenHash: hash }));
    await create(kube, gwObject('GatewayToken', other, 'c', { tokenHash: hash }));
    const b = await waitForReady(kube, 'GatewayToken', ns, 'b', { status: 'False', reason: 'HashRevoked' });
    expect(b.status?.conditions?.find((c) => c.type === 'Ready')?.message).toContain('revoked');
    await waitForReady(kube, 'GatewayToken', other, 'c', { status: 'False', reason: 'HashRevoked' });
    await eventually('a Warning Event on B', async () => (await events(ns, 'b')).some((e) => e.type === 'Warning' && e.reason === 'TokenNotReady' && e.message?.includes('HashRevoked')));
    expect(await status(token)).toBe(401);
    expect(await reader.findToken(hash)).toBeNull();

    // Deleting the revoked token and the refused ones removes nothing of the revocation.
    await gone(ns, 'a');
    await gone(ns, 'b');
    await create(kube, gwObject('GatewayToken', ns, 'a', { tokenHash: hash }));
    await waitForReady(kube, 'GatewayToken', ns, 'a', { status: 'False', reason: 'HashRevoked' });
    expect(await status(token)).toBe(401);
  });

  it('deleting a token revokes it: recreating it with the same hash does not bring it back', { timeout: 90_000 }, async () => {
    const ns = await company();
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'temp', { tokenHash: hashToken(token) }));
    await eventually('token serves', async () => (await status(token)) === 200, 20_000, 100);
    // Ready: its finalizer is on, so the object goes only after the revocation is written.
    await waitForReady(kube, 'GatewayToken', ns, 'temp', { status: 'True' });
    await gone(ns, 'temp');
    expect(await status(token)).toBe(401);
    await create(kube, gwObject('GatewayToken', ns, 'temp', { tokenHash: hashToken(token) }));
    await waitForReady(kube, 'GatewayToken', ns, 'temp', { status: 'False', reason: 'HashRevoked' });
    expect(await status(token)).toBe(401);
  });

  it('a token deleted the moment it served, before its finalizer was on, is revoked all the same (by the reconcile its delete event brings)', { timeout: 90_000 }, async () => {
    const ns = await company();
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'quick', { tokenHash: hashToken(token) }));
    await eventually('token serves', async () => (await status(token)) === 200, 20_000, 20);
    await remove(kube, 'GatewayToken', ns, 'quick');
    await eventually('revoked', async () => JSON.parse((await redisGet(`gw:token:${hashToken(token)}`)) ?? '{}').revoked === true, 20_000, 20);
    expect(await status(token)).toBe(401);
    await eventually('gone', async () => (await get(kube, 'GatewayToken', ns, 'quick')) === null);
    await create(kube, gwObject('GatewayToken', ns, 'quick', { tokenHash: hashToken(token) }));
    await waitForReady(kube, 'GatewayToken', ns, 'quick', { status: 'False', reason: 'HashRevoked' });
    expect(await status(token)).toBe(401);
  });

  it("a copy of a live token's hash in another namespace revokes nothing when it is deleted", { timeout: 90_000 }, async () => {
    const owner = await company();
    const copier = await company();
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', owner, 'real', { tokenHash: hashToken(token) }));
    await waitForReady(kube, 'GatewayToken', owner, 'real', { status: 'True' });
    await create(kube, gwObject('GatewayToken', copier, 'copy', { tokenHash: hashToken(token) }));
    await waitForReady(kube, 'GatewayToken', copier, 'copy', { status: 'False', reason: 'DuplicateHash' });
    await gone(copier, 'copy');
    expect(await status(token)).toBe(200);
    expect((await reader.findToken(hashToken(token)))?.company).toBe(owner);
  });
});

describe('a lost Redis', () => {
  it('is rebuilt by the leader without waiting for the resync, and answered with 503 unavailable (never 401) until then', { timeout: 120_000 }, async () => {
    const ns = await company();
    const token = generateToken();
    const revoked = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'live', { tokenHash: hashToken(token) }));
    await create(kube, gwObject('GatewayToken', ns, 'dead', { tokenHash: hashToken(revoked), revoked: true }));
    await eventually('token serves', async () => (await status(token)) === 200, 20_000, 100);
    const op = await leader();

    // With the operator paused, nothing rebuilds: the data plane must say it cannot know, not that the token is dead.
    op.child.kill('SIGSTOP');
    try {
      const raw = new Redis(redis.url);
      await raw.flushall();
      raw.disconnect();
      for (let i = 0; i < 5; i++) expect(await fault(token)).toEqual({ status: 503, fault: 'unavailable' });
    } finally {
      op.child.kill('SIGCONT');
    }
    // Watched request by request until it serves again: 503s, then 200s, never a 401.
    const seen: number[] = [];
    await eventually(
      'token serves again',
      async () => {
        const s = await status(token);
        seen.push(s);
        return s === 200;
      },
      30_000,
      20,
    );
    expect(seen.filter((s) => s !== 503 && s !== 200)).toEqual([]);
    await eventually('generation marked again', () => reader.loaded());
    expect(await status(revoked)).toBe(401);

    // Flushed while the operator runs: rebuilt from the generation check, long before the 60 s resync.
    const raw = new Redis(redis.url);
    await raw.flushall();
    raw.disconnect();
    const after: number[] = [];
    const trace: string[] = [];
    await eventually(
      'token serves after the second flush',
      async () => {
        const res = await fetch(`${gateway.url}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
        });
        const text = await res.text();
        trace.push(`${new Date().toISOString()} ${res.status} ${text.slice(0, 200)}`);
        after.push(res.status);
        return res.status === 200;
      },
      30_000,
      20,
    );
    expect(trace.filter((t) => !/ (503|200) /.test(t))).toEqual([]);
    expect(after.filter((s) => s !== 503 && s !== 200)).toEqual([]);
    // Log lines are written in batches (up to 100 ms late): wait for it rather than read once.
    expect(await waitForOutput(op, 'redis rebuilt from the cluster')).toContain('redis rebuilt from the cluster');
  });
});

describe('a paused leader', () => {
  it('cannot bring back a token revoked while it was stopped: the revoked token is never served again, polled through the whole window', { timeout: 120_000 }, async () => {
    const ns = await company();
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'victim', { tokenHash: hashToken(token) }));
    await eventually('token serves', async () => (await status(token)) === 200, 20_000, 100);
    const old = await leader();
    const other = running.find((p) => p !== old && p.child.exitCode === null) ?? (await replica('safety-b'));
    expect((await other.readyz()).role).toBe('follower');

    old.child.kill('SIGSTOP');
    let resumed = false;
    try {
      await eventually('the other replica takes over', async () => (await other.metric('gw_operator_leader')) === 1, LEASE_SECONDS * 1000 * 4 + 10_000, 100);
      await patchSpec(kube, 'GatewayToken', ns, 'victim', { revoked: true });
      // Touch the namespace again while the old leader sleeps, so it has work queued when it wakes.
      await patchSpec(kube, 'GatewaySettings', ns, 'settings', { tokenDomain: `${ns}.renamed` });
      await eventually('revoked through the new leader', async () => (await status(token)) === 401, 20_000, 20);
      old.child.kill('SIGCONT');
      resumed = true;
    } finally {
      if (!resumed) old.child.kill('SIGCONT');
    }
    // Several lease durations and the old leader's retries: the token must never be served again.
    const until = Date.now() + LEASE_SECONDS * 1000 * 5;
    const served: number[] = [];
    while (Date.now() < until) {
      const s = await status(token);
      if (s !== 401) served.push(s);
      const record = await reader.findToken(hashToken(token));
      if (record !== null) served.push(-1);
    }
    expect(served).toEqual([]);
    await waitForReady(kube, 'GatewayToken', ns, 'victim', { status: 'True', reason: 'Revoked' });
  });
});

describe('invalid settings', () => {
  it('an unknown time zone is refused visibly (Ready=False naming the field, an Event) and the company keeps working with its last valid settings', { timeout: 90_000 }, async () => {
    const ns = await company();
    await patchSpec(kube, 'GatewaySettings', ns, 'settings', { spendLimits: { timeZone: 'Europe/Paris', company: [{ window: 'daily', usd: 100 }] } });
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'user', { tokenHash: hashToken(token) }));
    await eventually('settings in force', async () => (await reader.getCompany(ns))?.settings.timeZone === 'Europe/Paris');
    await eventually('token serves', async () => (await status(token)) === 200, 20_000, 100);

    await patchSpec(kube, 'GatewaySettings', ns, 'settings', { tokenDomain: 'changed.example', spendLimits: { timeZone: 'Mars/Olympus' } });
    const obj = await waitForReady(kube, 'GatewaySettings', ns, 'settings', { status: 'False', reason: 'InvalidSettings' });
    const message = obj.status?.conditions?.find((c) => c.type === 'Ready')?.message ?? '';
    expect(message).toContain('spec.spendLimits.timeZone');
    expect(message).toContain('Mars/Olympus');
    await eventually('a SettingsInvalid Event', async () => (await events(ns, 'settings')).some((e) => e.type === 'Warning' && e.reason === 'SettingsInvalid'));
    for (let i = 0; i < 5; i++) expect(await status(token)).toBe(200);
    const inForce = (await reader.getCompany(ns))?.settings;
    expect(inForce?.timeZone).toBe('Europe/Paris');
    expect(inForce?.tokenDomain).toBe(`${ns}.example`);
    expect((await reader.findToken(hashToken(token)))?.address).toBe(`user@${ns}.example`);

    // Fixed: applied, Ready again.
    await patchSpec(kube, 'GatewaySettings', ns, 'settings', { spendLimits: { timeZone: 'Asia/Tokyo' } });
    await waitForReady(kube, 'GatewaySettings', ns, 'settings', { status: 'True' });
    await eventually('fixed settings in force', async () => (await reader.getCompany(ns))?.settings.timeZone === 'Asia/Tokyo');
    expect(await status(token)).toBe(200);
  });
});

describe('credential health', () => {
  it('a key the provider rejects shows in status, the Healthy column and a Warning Event without waiting for a resync, and recovers when the Secret is fixed', { timeout: 90_000 }, async () => {
    const ns = await company();
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'caller', { tokenHash: hashToken(token) }));
    const healthOf = async (): Promise<{ healthy?: unknown; condition?: { status: string; reason?: string } }> => {
      const obj = await get(kube, 'ProviderCredential', ns, 'vendor');
      const s = (obj?.status ?? {}) as { healthy?: unknown; conditions?: Array<{ type: string; status: string; reason?: string }> };
      return { healthy: s.healthy, condition: s.conditions?.find((c) => c.type === 'Healthy') };
    };
    await eventually('healthy in status', async () => (await healthOf()).healthy === true);
    await eventually('token serves', async () => (await status(token)) === 200, 20_000, 100);
    // The provider rejects this key everywhere, so the data plane's own key check confirms the callers' 401s.
    const before = mock.options;
    mock.options = { ...before, keys: { reject: ['sk-ant-safety'] } };
    try {
      await eventually(
        'unhealthy in status',
        async () => {
          await status(token);
          return (await healthOf()).healthy === false;
        },
        30_000,
        200,
      );
      expect((await healthOf()).condition).toMatchObject({ status: 'False', reason: 'UpstreamRejected' });
      await eventually('a CredentialUnhealthy Event', async () => (await events(ns, 'vendor')).some((e) => e.type === 'Warning' && e.reason === 'CredentialUnhealthy'));

      await putSecret(kube, ns, 'key', { key: 'sk-ant-fixed' });
      await eventually('healthy after the Secret is fixed', async () => (await healthOf()).healthy === true);
      await eventually('a CredentialHealthy Event', async () => (await events(ns, 'vendor')).some((e) => e.type === 'Normal' && e.reason === 'CredentialHealthy'));
    } finally {
      mock.options = before;
    }
    await eventually('token serves again', async () => (await status(token)) === 200, 20_000, 100);
  });
});

// The test API server runs no controller manager, so the namespace controller's part is played here as
// Kubernetes does it (pkg/controller/namespace/deletion/namespaced_resources_deleter.go): a deleted
// namespace gets a deletionTimestamp and phase Terminating (from the API server itself), the
// NamespaceLifecycle admission plugin refuses anything new in it, the controller deletes its content
// collection by collection (deletecollection per resource type, in no order we can count on), waits
// while objects with finalizers remain, then removes its `kubernetes` finalizer through the
// namespace's finalize subresource and the namespace goes.
describe('namespace deletion', () => {
  it("writes no generated Secret into a terminating namespace, and removes the company's keys from Redis (usage history, spend counters and the ledger stay)", { timeout: 120_000 }, async () => {
    const ns = await company();
    await patchSpec(kube, 'GatewaySettings', ns, 'settings', { spendLimits: { company: [{ window: 'daily', usd: 100 }] } });
    const token = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'hashed', { tokenHash: hashToken(token) }));
    await create(kube, gwObject('GatewayToken', ns, 'generated', {}));
    await waitForReady(kube, 'GatewayToken', ns, 'generated', { status: 'True' });
    const secret = await kube.core.readNamespacedSecret({ namespace: ns, name: 'generated-gwct' });
    const generated = Buffer.from(secret.data?.token ?? '', 'base64').toString('utf8');
    await eventually('both tokens serve', async () => (await status(token)) === 200 && (await status(generated)) === 200, 20_000, 100);
    // A request with a session (a sticky choice) and usage and spend recorded; a caller slot left by a
    // gateway that died with a request in flight (it would stay until its TTL).
    const res = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': 'session-1' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const raw = new Redis(redis.url);
    try {
      await raw.zadd(`gw:{${ns}}:slots:${hashToken(token)}`, Date.now() + 60_000, 'crashed-request');
      const prefix = `gw:{${ns}}:`;
      const companyKeys = async (): Promise<string[]> => (await raw.keys(`${prefix}*`)).map((k) => k.slice(prefix.length)).sort();
      // Usage is written by the gateway's flush, a moment after the response.
      await eventually('runtime keys written', async () => {
        const before = await companyKeys();
        return ['records', 'tokens', 'fp:vendor', 'sticky:', 'slots:', 'spend:', 'usage'].every((kind) => before.some((k) => k.startsWith(kind)));
      });

      // kubectl delete namespace.
      await kube.core.deleteNamespace({ name: ns });
      expect((await kube.core.readNamespace({ name: ns })).status?.phase).toBe('Terminating');
      const operator = await leader();
      const warningsBefore = operator.output.filter((l) => l.includes(ns) && l.includes('will retry')).length;
      // Secrets first: the generated one goes before its token. The operator must not write it again.
      await kube.core.deleteCollectionNamespacedSecret({ namespace: ns });
      await eventually('the generated token is no longer live (the operator saw its Secret go)', async () => (await reader.findToken(hashToken(generated))) === null);
      // Its next reconciles still find the token without a Secret: every create is refused, none retried in a loop.
      await patchSpec(kube, 'GatewayToken', ns, 'generated', { displayName: 'touched' });
      await eventually('the touched token reconciled', async () => ready(await get(kube, 'GatewayToken', ns, 'generated'))?.observedGeneration === 2, 20_000, 100);
      expect((await kube.core.listNamespacedSecret({ namespace: ns })).items.map((s) => s.metadata?.name)).toEqual([]);
      expect(operator.output.filter((l) => l.includes(ns) && l.includes('will retry')).length).toBe(warningsBefore);

      // Then the kinds, as the controller deletes every collection: our finalizers hold each until its records are out.
      for (const plural of ['gatewaytokens', 'providercredentials', 'gatewaysettings']) {
        await kube.custom.deleteCollectionNamespacedCustomObject({ group: 'gw.io', version: 'v1alpha1', namespace: ns, plural });
      }
      await eventually(
        'every resource gone',
        async () => {
          for (const plural of ['gatewaytokens', 'providercredentials', 'gatewaysettings']) {
            const list = (await kube.custom.listNamespacedCustomObject({ group: 'gw.io', version: 'v1alpha1', namespace: ns, plural })) as { items: unknown[] };
            if (list.items.length > 0) return false;
          }
          return true;
        },
        30_000,
        100,
      );
      await kube.core.replaceNamespaceFinalize({ name: ns, body: { metadata: { name: ns }, spec: { finalizers: [] } } });
      await eventually(
        'namespace gone',
        async () =>
          await kube.core.readNamespace({ name: ns }).then(
            () => false,
            () => true,
          ),
        20_000,
        100,
      );

      // Nothing was written into it meanwhile, and the company's runtime keys are gone.
      await eventually('company removed from Redis', async () => (await reader.getCompany(ns)) === null && !(await raw.sismember('gw:companies', ns)));
      const after = await companyKeys();
      for (const kind of ['records', 'tokens', 'fp:', 'health:', 'leases:', 'sticky:', 'slots:'])
        expect(
          after.filter((k) => k.startsWith(kind)),
          `${kind} after`,
        ).toEqual([]);
      // Kept, as docs/operator.md says: usage history and spend counters (until their window ends).
      expect(after.some((k) => k === 'usage')).toBe(true);
      expect(after.some((k) => k.startsWith('spend:'))).toBe(true);
      expect(await raw.pttl(`${prefix}${after.find((k) => k.startsWith('spend:')) ?? ''}`)).toBeGreaterThan(0);
      // Deleting revoked the hashed token: a tombstone, and the ledger entry in the Lease's namespace.
      expect(JSON.parse((await raw.get(`gw:token:${hashToken(token)}`)) ?? '{}')).toMatchObject({ revoked: true });
      const ledger = await kube.core.listNamespacedConfigMap({ namespace: 'default' });
      expect(ledger.items.some((c) => Object.keys(c.data ?? {}).includes(hashToken(token).replace(':', '.')))).toBe(true);
      expect(await status(token)).toBe(401);
      expect(await status(generated)).toBe(401);
    } finally {
      raw.disconnect();
    }
  });
});
