import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { createLogger } from '../../../src/observability/logger.js';
import { EventRecorder } from '../../../src/operator/events.js';
import { createInformers, type Informers } from '../../../src/operator/informers.js';
import { kubeClients, loadKubeConfig } from '../../../src/operator/kube-client.js';
import { clientNodeWriter, liveTokenLookup } from '../../../src/operator/kube-writer.js';
import { OperatorMetrics } from '../../../src/operator/operator-metrics.js';
import { NamespaceReconciler } from '../../../src/operator/reconcile-namespace.js';
import { rebuildRedis } from '../../../src/operator/resync.js';
import { configMapLedgerStore, RevocationLedger } from '../../../src/operator/revocation-ledger.js';
import { applyFile } from '../../../src/runtime/gateway-runtime.js';
import { decodeCompany } from '../../../src/state/redis/company-codec.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startOperator, type OperatorProcess } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { create, createNamespace, eventually, get, gwObject, installCrds, kubeFor, MERGE, patchSpec, putSecret, remove, waitForReady, type Kube, type Obj } from './kube-helpers.js';

// The three paths from desired state to Redis — the operator's reconcile,
// its rebuild after a Redis loss, and gw serve -f — run on the same
// resources, each into a Redis of its own, and must leave the same keys
// with the same values. The resources exercise what the paths used to
// disagree on: a generated token whose Secret lacks the label (read by name),
// revoked and deleted tokens (hashed and generated), a company that loses
// every resource.
const START_TIMEOUT_MS = 45 * 60_000;
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const BOX = SecretBox.fromBase64(ENCRYPTION_KEY);
const NS = 'onepath';
const OTHER = 'onepath-other';
const LEASE_NAMESPACE = 'default';

let server: KubeApiServer;
let kube: Kube;
const redis: Record<'reconcile' | 'rebuild' | 'file', TestRedis | null> = { reconcile: null, rebuild: null, file: null };
let operator: OperatorProcess | null = null;
let informers: Informers | null = null;

beforeAll(async () => {
  server = await startKubeApiServer();
  kube = kubeFor(server);
  await installCrds(kube);
  for (const path of ['reconcile', 'rebuild', 'file'] as const) redis[path] = await startRedis();
}, START_TIMEOUT_MS);

afterAll(async () => {
  await operator?.stop('SIGKILL');
  await informers?.stop();
  for (const r of Object.values(redis)) await r?.destroy();
  await server?.stop();
});

/** Every key and its value, read by type; company records decoded (their secrets are sealed with a fresh nonce each write). */
async function dump(url: string): Promise<Record<string, unknown>> {
  const client = new Redis(url);
  try {
    const out: Record<string, unknown> = {};
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of batch) {
        const type = await client.type(key);
        if (type === 'string') {
          const raw = (await client.get(key)) as string;
          if (key === 'gw:generation') out[key] = 'a fresh mark per load';
          else if (key.endsWith(':records')) out[key] = decodeCompany(raw, BOX);
          else out[key] = raw.startsWith('{') ? (JSON.parse(raw) as unknown) : raw;
        } else if (type === 'set') out[key] = (await client.smembers(key)).sort();
        else out[key] = `unexpected ${type}`;
      }
    } while (cursor !== '0');
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  } finally {
    client.disconnect();
  }
}

async function generatedValue(name: string): Promise<{ value: string; data: Record<string, string> }> {
  return eventually(`the generated Secret of ${name}`, async () => {
    const secret = await kube.core.readNamespacedSecret({ namespace: NS, name: `${name}-gwct` });
    const data = secret.data ?? {};
    const value = Buffer.from(data.token ?? '', 'base64').toString('utf8');
    return value ? { value, data } : undefined;
  });
}

function fileOf(dir: string, name: string, docs: object[]): string {
  const file = join(dir, name);
  writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  return file;
}

describe('the reconcile, the rebuild and gw serve -f write the same Redis', () => {
  it('key by key, from the same resources', { timeout: 300_000 }, async () => {
    operator = await startOperator({
      kubeconfig: server.kubeconfigPath,
      redisUrl: (redis.reconcile as TestRedis).url,
      encryptionKey: ENCRYPTION_KEY,
      identity: 'one-path',
      args: ['--lease-namespace', LEASE_NAMESPACE, '--lease-name', 'gw-one-path', '--lease-duration-seconds', '4', '--resync-seconds', '600'],
    });
    await eventually('the operator leads', async () => (await (operator as OperatorProcess).readyz()).role === 'leader', 60_000, 100);

    // The first state: two companies, every kind of token and credential.
    const hashes = { live: hashToken(generateToken()), leaving: hashToken(generateToken()), retiring: hashToken(generateToken()), other: hashToken(generateToken()) };
    const settingsSpec = { tokenDomain: 'onepath.example', repositoryAttribution: true, spendLimits: { perToken: [{ window: 'daily', usd: 3 }] }, callerConcurrency: { default: 3 } };
    const keys = { vendor: 'sk-vendor-onepath', router: 'sk-router-onepath' };
    const first: Obj[] = [
      gwObject('GatewaySettings', NS, 'settings', settingsSpec),
      gwObject('GatewayToken', NS, 'live', { tokenHash: hashes.live }),
      gwObject('GatewayToken', NS, 'leaving', { tokenHash: hashes.leaving }),
      gwObject('GatewayToken', NS, 'retiring', { tokenHash: hashes.retiring }),
      gwObject('GatewayToken', NS, 'generated', {}),
      gwObject('GatewayToken', NS, 'generated-leaving', {}),
      gwObject('GatewayToken', NS, 'legacy', {}),
      gwObject('ProviderCredential', NS, 'vendor', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'keys', key: 'vendor' }, priority: 5 }),
      gwObject('ProviderCredential', NS, 'router', { provider: 'provider_a', kind: 'apiKey', secretRef: { name: 'keys', key: 'router' }, baseUrl: 'https://router.example/api/', maxConcurrency: 2 }),
      gwObject('ProviderCredential', NS, 'seat', { provider: 'vendor', kind: 'subscriptionSeat', secretRef: { name: 'missing', key: 'token' } }),
      gwObject('GatewaySettings', OTHER, 'settings', {}),
      gwObject('GatewayToken', OTHER, 'other', { tokenHash: hashes.other }),
    ];
    await createNamespace(kube, NS);
    await createNamespace(kube, OTHER);
    await putSecret(kube, NS, 'keys', keys);
    for (const obj of first) await create(kube, obj);
    for (const name of ['live', 'leaving', 'retiring', 'generated', 'generated-leaving', 'legacy']) await waitForReady(kube, 'GatewayToken', NS, name, { status: 'True' }, 60_000);
    await waitForReady(kube, 'GatewayToken', OTHER, 'other', { status: 'True' }, 60_000);
    const generated = { generated: await generatedValue('generated'), leaving: await generatedValue('generated-leaving'), legacy: await generatedValue('legacy') };
    // A generated Secret written before the label existed: out of the operator's cache, read by name.
    await kube.core.patchNamespacedSecret({ namespace: NS, name: 'legacy-gwct', body: { metadata: { labels: { 'gw.io/secret': null } } } }, MERGE);

    // The second state: a hashed and a generated token deleted, one revoked, the other company emptied.
    await patchSpec(kube, 'GatewayToken', NS, 'retiring', { revoked: true });
    await remove(kube, 'GatewayToken', NS, 'leaving');
    await remove(kube, 'GatewayToken', NS, 'generated-leaving');
    await remove(kube, 'GatewayToken', OTHER, 'other');
    await remove(kube, 'GatewaySettings', OTHER, 'settings');
    const revokedHashes = [hashes.leaving, hashes.retiring, hashes.other, hashToken(generated.leaving.value)];
    const reconciled = new RedisState(connectRedis((redis.reconcile as TestRedis).url), BOX);
    await reconciled.ready();
    try {
      await eventually(
        'the operator wrote the second state',
        async () => {
          for (const [ns, name] of [
            [NS, 'leaving'],
            [NS, 'generated-leaving'],
            [OTHER, 'other'],
            [OTHER, 'settings'],
          ] as const) {
            if ((await get(kube, name === 'settings' ? 'GatewaySettings' : 'GatewayToken', ns, name)) !== null) return false;
          }
          for (const hash of revokedHashes) if ((await reconciled.findToken(hash)) !== null) return false;
          const company = await reconciled.getCompany(NS);
          return (await reconciled.getCompany(OTHER)) === null && company?.tokens.map((t) => t.name).join() === 'generated,legacy,live';
        },
        60_000,
        100,
      );
      await waitForReady(kube, 'GatewayToken', NS, 'retiring', { status: 'True' }, 60_000);
      expect(await reconciled.findToken(hashToken(generated.legacy.value))).toMatchObject({ name: 'legacy' });
    } finally {
      await reconciled.close();
    }
    await operator.stop('SIGTERM');
    operator = null;
    const fromReconcile = await dump((redis.reconcile as TestRedis).url);

    // The rebuild: this build's rebuildRedis into an empty Redis, from caches of the same cluster and the same ledger.
    const logger = createLogger('silent');
    const clients = kubeClients(loadKubeConfig({ kind: 'file', path: server.kubeconfigPath }));
    const metrics = new OperatorMetrics(false);
    informers = createInformers(clients, null, logger, metrics);
    await informers.start();
    const caches = informers;
    await eventually('the caches synced', () => caches.synced(), 60_000, 100);
    const ledger = new RevocationLedger(configMapLedgerStore(clients, LEASE_NAMESPACE));
    await ledger.load();
    const rebuilt = new RedisState(connectRedis((redis.rebuild as TestRedis).url), BOX);
    await rebuilt.ready();
    try {
      const writer = clientNodeWriter(clients);
      const reconciler = new NamespaceReconciler({
        view: caches.view,
        writer,
        state: rebuilt,
        events: new EventRecorder(writer, 'one-path-rebuild', logger, metrics),
        metrics,
        logger,
        isLeader: () => true,
        epoch: () => 0,
        ledger,
        tokenExists: liveTokenLookup(clients),
        synced: () => caches.synced(),
      });
      const done = await rebuildRedis({ view: caches.view, state: rebuilt, ledger, isLeader: () => true, namespace: null, companies: reconciler });
      expect(done.tokens).toBe(3);
    } finally {
      await rebuilt.close();
    }
    const fromRebuild = await dump((redis.rebuild as TestRedis).url);

    // gw serve -f: the same documents as two versions of a file, the generated Secrets as the cluster holds them.
    const dir = mkdtempSync(join(tmpdir(), 'gw-one-path-'));
    const secretDoc = (name: string, data: Record<string, string>): object => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS }, data });
    const secrets = [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'keys', namespace: NS }, stringData: keys },
      secretDoc('generated-gwct', generated.generated.data),
      secretDoc('generated-leaving-gwct', generated.leaving.data),
      secretDoc('legacy-gwct', generated.legacy.data),
    ];
    const second = first
      .filter((o) => !['leaving', 'generated-leaving'].includes(o.metadata.name) && o.metadata.namespace !== OTHER)
      .map((o) => (o.metadata.name === 'retiring' ? { ...o, spec: { ...o.spec, revoked: true } } : o));
    const filed = new RedisState(connectRedis((redis.file as TestRedis).url), BOX);
    await filed.ready();
    try {
      await applyFile(fileOf(dir, 'first.yaml', [...first, ...secrets]), filed, logger);
      await applyFile(fileOf(dir, 'second.yaml', [...second, ...secrets.filter((s) => (s as Obj).metadata.name !== 'generated-leaving-gwct')]), filed, logger);
    } finally {
      await filed.close();
    }
    const fromFile = await dump((redis.file as TestRedis).url);

    // What each must hold, so an empty or half-written Redis cannot pass by agreeing with another.
    expect(fromReconcile['gw:companies']).toEqual([NS]);
    expect((fromReconcile[`gw:{${NS}}:records`] as { credentials: Array<{ name: string }> }).credentials.map((c) => c.name).sort()).toEqual(['router', 'vendor']);
    for (const hash of revokedHashes) expect(fromReconcile[`gw:token:${hash}`]).toMatchObject({ revoked: true });
    expect(fromReconcile[`gw:token:${hashToken(generated.legacy.value)}`]).toMatchObject({ name: 'legacy', company: NS });
    expect(fromReconcile['gw:generation']).toBeDefined();

    expect(fromRebuild).toEqual(fromReconcile);
    expect(fromFile).toEqual(fromReconcile);
  });
});
