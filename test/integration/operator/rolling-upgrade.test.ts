import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { startOperator, startReaderGateway, type OperatorProcess, type ReaderGateway } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { create, createNamespace, eventually, gwObject, installCrds, kubeFor, patchSpec, putSecret, ROOT, type Kube } from './kube-helpers.js';

// A rolling upgrade, both ways, on one real Redis: this build's operator
// beside the previous build's data plane (the commit pinned in
// test/tools/build-previous-gw.sh, built once into the tool cache), then the
// previous build's operator beside this build's data plane. A caller's
// requests go to both data planes all along and must all succeed; tokens
// created and revoked by either operator take effect on either data plane.
const START_TIMEOUT_MS = 45 * 60_000;
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const NS = 'upgrade';
const LEASE = ['--lease-namespace', 'default', '--lease-name', 'gw-upgrade', '--lease-duration-seconds', '4', '--resync-seconds', '600'];

let previousBin: string;
let server: KubeApiServer;
let kube: Kube;
let redis: TestRedis;
let mock: MockProvider;
const processes: Array<OperatorProcess | ReaderGateway> = [];

beforeAll(async () => {
  const script = join(ROOT, 'test', 'tools', 'build-previous-gw.sh');
  execFileSync('bash', [script], { stdio: 'ignore', timeout: START_TIMEOUT_MS });
  previousBin = execFileSync('bash', [script, '--print'], { encoding: 'utf8' })
    .trim()
    .replace(/^gw-previous=/, '');
  server = await startKubeApiServer();
  kube = kubeFor(server);
  await installCrds(kube);
  redis = await startRedis();
  mock = await startMockProvider();
}, START_TIMEOUT_MS);

afterAll(async () => {
  for (const p of processes) await p.stop('SIGKILL');
  await mock?.close();
  await redis?.destroy();
  await server?.stop();
});

async function status(gateway: ReaderGateway, token: string): Promise<number> {
  const res = await fetch(`${gateway.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status;
}

async function operator(identity: string, bin?: string): Promise<OperatorProcess> {
  const started = await startOperator({ kubeconfig: server.kubeconfigPath, redisUrl: redis.url, encryptionKey: ENCRYPTION_KEY, identity, args: LEASE, ...(bin ? { bin } : {}) });
  processes.push(started);
  await eventually(`${identity} leads`, async () => (await started.readyz()).role === 'leader', 60_000, 100);
  return started;
}

async function gateway(bin?: string): Promise<ReaderGateway> {
  const started = await startReaderGateway(redis.url, ENCRYPTION_KEY, bin);
  processes.push(started);
  return started;
}

describe('rolling upgrade: this build beside the previous one', () => {
  it('either build’s operator serves either build’s data plane, with a caller’s traffic succeeding throughout', { timeout: 600_000 }, async () => {
    const steady = generateToken();
    const tokens = { b: generateToken(), c: generateToken(), d: generateToken() };
    const newOperator = await operator('this-build');
    const planes = { previous: await gateway(previousBin), current: await gateway() };

    await createNamespace(kube, NS);
    await create(kube, gwObject('GatewaySettings', NS, 'settings', { tokenDomain: 'upgrade.example' }));
    await putSecret(kube, NS, 'key', { key: 'sk-ant-upgrade' });
    await create(kube, gwObject('ProviderCredential', NS, 'vendor', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'key', key: 'key' }, baseUrl: mock.url, maxConcurrency: 8 }));
    await create(kube, gwObject('GatewayToken', NS, 'steady', { tokenHash: hashToken(steady) }));
    await create(kube, gwObject('GatewayToken', NS, 'c', { tokenHash: hashToken(tokens.c) }));
    for (const plane of Object.values(planes)) {
      await eventually('the steady token serves', async () => (await status(plane, steady)) === 200, 30_000, 100);
      await eventually('token c serves', async () => (await status(plane, tokens.c)) === 200, 30_000, 100);
    }

    // The caller: one request at a time, to each data plane in turn, bounded in count.
    const seen: Array<{ plane: string; status: number }> = [];
    let stop = false;
    const caller = (async () => {
      for (let i = 0; i < 5_000 && !stop; i++) {
        const [name, plane] = i % 2 === 0 ? ['previous', planes.previous] : ['current', planes.current];
        seen.push({ plane: name, status: await status(plane, steady).catch(() => 0) });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    // This build's operator: a token it creates serves, and one it revokes is refused, on the previous data plane too.
    await create(kube, gwObject('GatewayToken', NS, 'b', { tokenHash: hashToken(tokens.b) }));
    await patchSpec(kube, 'GatewayToken', NS, 'c', { revoked: true });
    await eventually('token b serves on the previous data plane', async () => (await status(planes.previous, tokens.b)) === 200, 30_000, 100);
    await eventually('token c is refused on the previous data plane', async () => (await status(planes.previous, tokens.c)) === 401, 30_000, 100);
    expect(await status(planes.current, tokens.c)).toBe(401);

    // The other way: the previous build's operator takes over (a rollback, or the old half of an upgrade).
    await newOperator.stop('SIGTERM');
    await operator('previous-build', previousBin);
    await create(kube, gwObject('GatewayToken', NS, 'd', { tokenHash: hashToken(tokens.d) }));
    await patchSpec(kube, 'GatewayToken', NS, 'b', { revoked: true });
    await eventually('token d serves on this data plane', async () => (await status(planes.current, tokens.d)) === 200, 30_000, 100);
    await eventually('token b is refused on this data plane', async () => (await status(planes.current, tokens.b)) === 401, 30_000, 100);
    expect(await status(planes.previous, tokens.d)).toBe(200);
    expect(await status(planes.previous, tokens.b)).toBe(401);
    expect(await status(planes.current, tokens.c)).toBe(401);

    stop = true;
    await caller;
    const failed = seen.filter((s) => s.status !== 200);
    expect(failed).toEqual([]);
    expect(seen.filter((s) => s.plane === 'previous').length).toBeGreaterThan(10);
    expect(seen.filter((s) => s.plane === 'current').length).toBeGreaterThan(10);
  });
});
