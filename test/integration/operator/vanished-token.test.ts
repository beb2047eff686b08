import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { startOperator, startReaderGateway, type OperatorProcess, type ReaderGateway } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { create, createNamespace, eventually, get, gwObject, installCrds, kubeFor, putSecret, remove, waitForReady, type Kube } from './kube-helpers.js';

// The hole this closes: the operator writes a new token to Redis before its
// finalizer is on. If the operator dies in between and the token is deleted
// while no operator runs, nothing saw the deletion; the next leader must
// still revoke the hash (ledger + tombstone) instead of just dropping the
// record. Deterministic: the first operator runs as a user whose RBAC lacks
// `patch` on gatewaytokens, so the finalizer can never be added, and it is
// SIGKILLed once its tokens serve.
const START_TIMEOUT_MS = 45 * 60_000;
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const USER = 'operator-without-token-patch';

let server: KubeApiServer;
let kube: Kube;
let redis: TestRedis;
let reader: RedisState;
let gateway: ReaderGateway;
let mock: MockProvider;
let limitedKubeconfig: string;
const running: OperatorProcess[] = [];

function operator(identity: string, kubeconfig: string): Promise<OperatorProcess> {
  return startOperator({
    kubeconfig,
    redisUrl: redis.url,
    encryptionKey: ENCRYPTION_KEY,
    identity,
    args: ['--lease-namespace', 'default', '--lease-name', 'gw-vanished', '--lease-duration-seconds', '2', '--resync-seconds', '600'],
  }).then((p) => {
    running.push(p);
    return p;
  });
}

beforeAll(async () => {
  server = await startKubeApiServer({ users: [{ name: USER }] });
  kube = kubeFor(server);
  await installCrds(kube);
  // Everything the operator does (docs/operator.md, RBAC) except patching GatewayTokens: their finalizer is refused.
  const rbac = kube.kc.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createClusterRole({
    body: {
      metadata: { name: 'gw-operator-no-token-patch' },
      rules: [
        { apiGroups: ['gw.io'], resources: ['gatewaytokens'], verbs: ['list', 'watch'] },
        { apiGroups: ['gw.io'], resources: ['providercredentials', 'gatewaysettings'], verbs: ['list', 'watch', 'patch'] },
        { apiGroups: ['gw.io'], resources: ['gatewaytokens/status', 'providercredentials/status', 'gatewaysettings/status'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch', 'get', 'create', 'delete'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'list', 'get', 'update'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'update'] },
      ],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: 'gw-operator-no-token-patch' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gw-operator-no-token-patch' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: USER }],
    },
  });
  limitedKubeconfig = join(server.dir, 'limited-kubeconfig');
  const config = JSON.parse(readFileSync(server.kubeconfigPath, 'utf8')) as { users: Array<{ user: { token: string } }> };
  (config.users[0] as { user: { token: string } }).user.token = server.userTokens[USER] as string;
  writeFileSync(limitedKubeconfig, JSON.stringify(config), { mode: 0o600 });
  redis = await startRedis();
  reader = new RedisState(connectRedis(redis.url), SecretBox.fromBase64(ENCRYPTION_KEY));
  await reader.ready();
  mock = await startMockProvider();
  gateway = await startReaderGateway(redis.url, ENCRYPTION_KEY);
}, START_TIMEOUT_MS);

afterAll(async () => {
  for (const p of running) await p.stop('SIGKILL');
  await gateway?.stop('SIGKILL');
  await mock?.close();
  await reader?.close();
  await redis?.destroy();
  await server?.stop();
});

async function company(ns: string): Promise<void> {
  await createNamespace(kube, ns);
  await create(kube, gwObject('GatewaySettings', ns, 'settings', { tokenDomain: `${ns}.example` }));
  await putSecret(kube, ns, 'key', { key: 'sk-ant-vanished' });
  await create(kube, gwObject('ProviderCredential', ns, 'vendor', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'key', key: 'key' }, baseUrl: mock.url }));
}

async function status(token: string): Promise<number> {
  const once = async (): Promise<number> => {
    const res = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.text();
    return res.status;
  };
  try {
    return await once();
  } catch {
    return once();
  }
}

async function events(ns: string, name: string): Promise<Array<{ reason?: string; type?: string; message?: string }>> {
  const list = await kube.core.listNamespacedEvent({ namespace: ns, fieldSelector: `involvedObject.name=${name}` });
  return list.items.map((e) => ({ reason: e.reason, type: e.type, message: e.message }));
}

async function tombstoned(hash: string): Promise<boolean> {
  const raw = new Redis(redis.url);
  try {
    return (JSON.parse((await raw.get(`gw:token:${hash}`)) ?? '{}') as { revoked?: boolean }).revoked === true;
  } finally {
    raw.disconnect();
  }
}

async function ledgerHas(hash: string): Promise<boolean> {
  const maps = await kube.core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'gw.io/revocations=true' });
  return maps.items.some((m) => Object.keys(m.data ?? {}).includes(hash.replace(':', '.')));
}

describe('a token deleted while no operator ran, before it carried the finalizer', () => {
  it(
    'is revoked by the next leader (ledger + tombstone), hashed and generated alike: the secret never authenticates again and a new resource naming the hash is refused',
    { timeout: 180_000 },
    async () => {
      const ns = `vanish-${randomBytes(2).toString('hex')}`;
      const other = `vanish-other-${randomBytes(2).toString('hex')}`;
      await company(ns);
      await company(other);

      const limited = await operator('no-finalizer', limitedKubeconfig);
      const secret = generateToken();
      const hash = hashToken(secret);
      await create(kube, gwObject('GatewayToken', ns, 'hashed', { tokenHash: hash }));
      await create(kube, gwObject('GatewayToken', ns, 'generated', {}));
      await eventually('the hashed token serves', async () => (await status(secret)) === 200, 30_000, 100);
      const generatedSecret = await eventually(
        'the generated Secret',
        async () => {
          try {
            const s = await kube.core.readNamespacedSecret({ namespace: ns, name: 'generated-gwct' });
            return Buffer.from(s.data?.token ?? '', 'base64').toString('utf8') || undefined;
          } catch {
            return undefined;
          }
        },
        30_000,
        100,
      );
      const generatedHash = hashToken(generatedSecret);
      await eventually('the generated token serves', async () => (await status(generatedSecret)) === 200, 30_000, 100);
      // The precondition of the hole: live in Redis, no finalizer (the API server refuses the patch).
      for (const name of ['hashed', 'generated']) expect((await get(kube, 'GatewayToken', ns, name))?.metadata.finalizers ?? []).toEqual([]);
      await limited.stop('SIGKILL');

      // Deleted while no operator runs; the generated Secret goes too (what the garbage collector would do).
      await remove(kube, 'GatewayToken', ns, 'hashed');
      await remove(kube, 'GatewayToken', ns, 'generated');
      await kube.core.deleteNamespacedSecret({ namespace: ns, name: 'generated-gwct' });
      await eventually('both gone', async () => (await get(kube, 'GatewayToken', ns, 'hashed')) === null && (await get(kube, 'GatewayToken', ns, 'generated')) === null);
      expect(await status(secret)).toBe(200);
      expect(await ledgerHas(hash)).toBe(false);

      await operator('next-leader', server.kubeconfigPath);
      await eventually('both hashes in the durable ledger', async () => (await ledgerHas(hash)) && (await ledgerHas(generatedHash)), 30_000, 100);
      for (const h of [hash, generatedHash]) {
        await eventually(`a tombstone for ${h.slice(0, 16)}`, async () => tombstoned(h), 20_000, 50);
      }
      expect(await status(secret)).toBe(401);
      expect(await status(generatedSecret)).toBe(401);

      // A new resource naming either hash, in the same namespace and in another one: refused as revoked.
      await create(kube, gwObject('GatewayToken', ns, 'again', { tokenHash: hash }));
      await create(kube, gwObject('GatewayToken', other, 'elsewhere', { tokenHash: hash }));
      await create(kube, gwObject('GatewayToken', other, 'generated-copy', { tokenHash: generatedHash }));
      const until = Date.now() + 30_000;
      const served: string[] = [];
      const refused = new Set<string>();
      while (Date.now() < until && refused.size < 3) {
        if ((await status(secret)) !== 401) served.push('hashed');
        if ((await status(generatedSecret)) !== 401) served.push('generated');
        for (const [n, name] of [
          [ns, 'again'],
          [other, 'elsewhere'],
          [other, 'generated-copy'],
        ] as const) {
          const obj = await get(kube, 'GatewayToken', n, name);
          const ready = obj?.status?.conditions?.find((c) => c.type === 'Ready');
          if (ready?.status === 'False' && ready.reason === 'HashRevoked' && obj?.status?.observedGeneration === obj?.metadata.generation) refused.add(`${n}/${name}`);
        }
      }
      expect(served).toEqual([]);
      expect([...refused].sort()).toEqual([`${ns}/again`, `${other}/elsewhere`, `${other}/generated-copy`].sort());
      await waitForReady(kube, 'GatewayToken', ns, 'again', { status: 'False', reason: 'HashRevoked' });
      await eventually('a Warning Event naming HashRevoked', async () => (await events(other, 'elsewhere')).some((e) => e.type === 'Warning' && e.message?.includes('HashRevoked')));
      // Polled once more after the refusals are written: still 401.
      for (let i = 0; i < 20; i++) {
        expect(await status(secret)).toBe(401);
        expect(await status(generatedSecret)).toBe(401);
      }
      expect(await reader.findToken(hash)).toBeNull();
      expect(await reader.findToken(generatedHash)).toBeNull();
    },
  );
});
