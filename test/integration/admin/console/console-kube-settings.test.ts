import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../../src/auth/token.js';
import { removeHelmHome } from '../../chart/chart-support.js';
import { create, createNamespace, eventually, get, gwObject, installCrds, kubeFor, patchSpec, putSecret, type Kube } from '../../operator/kube-helpers.js';
import { answerStatus, auditEvents, bindRole, installConsoleRoles, startConsoleCluster, userSubject } from '../../../support/console-cluster.js';
import type { GatewayProcess } from '../../../support/gateway-process.js';
import { startKubeApiServer, type KubeApiServer } from '../../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../../support/mock-provider.js';
import type { OperatorProcess } from '../../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../../support/redis-server.js';

/**
 * Settings, spend limits and model switches from the console in a cluster:
 * the change is a patch of the company's GatewaySettings sent with the
 * person's own token (the chart's console-editor and usage-viewer roles
 * decide, the API server's audit log names the person), checked with the
 * operator's own rules first, refused with 409 when someone else changed the
 * object since the page read it, and carried by the operator to Redis and the
 * gateway.
 */
const NS = 'acme';
const ENCRYPTION_KEY = randomBytes(32).toString('base64');

let server: KubeApiServer;
let redis: TestRedis;
let vendor: MockProvider;
let operator: OperatorProcess;
let gateway: GatewayProcess;
let kube: Kube;
const callerToken = generateToken();

beforeAll(async () => {
  [server, redis, vendor] = await Promise.all([startKubeApiServer({ users: [{ name: 'viola' }, { name: 'edgar' }] }), startRedis(), startMockProvider()]);
  kube = kubeFor(server);
  await installCrds(kube);
  const roles = await installConsoleRoles(kube);
  await createNamespace(kube, NS);
  await bindRole(kube, NS, 'viola-binding', roles.viewer, userSubject('viola'));
  await bindRole(kube, NS, 'edgar-binding', roles.editor, userSubject('edgar'));
  await putSecret(kube, NS, 'vendor-key', { key: 'sk-ant-api03-console-settings-0000' });
  await create(kube, gwObject('GatewaySettings', NS, 'settings', { tokenDomain: 'acme.example' }));
  await create(kube, gwObject('ProviderCredential', NS, 'vendor', { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'vendor-key', key: 'key' }, baseUrl: vendor.url }));
  await create(kube, gwObject('GatewayToken', NS, 'caller', { tokenHash: hashToken(callerToken) }));
  ({ operator, gateway } = await startConsoleCluster({
    server,
    redis,
    kube,
    encryptionKey: ENCRYPTION_KEY,
    identity: 'console-settings',
    ready: [
      { kind: 'GatewayToken', namespace: NS, name: 'caller' },
      { kind: 'ProviderCredential', namespace: NS, name: 'vendor' },
    ],
  }));
}, 45 * 60_000);

afterAll(async () => {
  await gateway?.stop();
  await operator?.stop();
  await vendor?.close();
  await redis?.stop();
  await server?.stop();
  removeHelmHome();
});

async function session(token: string): Promise<string> {
  const res = await fetch(`${gateway.adminUrl}/console/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1' },
    body: JSON.stringify({ token }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')?.split(';')[0] as string;
}

async function call(cookie: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${gateway.adminUrl}/console/api/${path}`, {
    method,
    headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The status the gateway answers the caller's token with, through the real SDK. */
const ask = (model: string): Promise<number> => answerStatus(gateway.url, callerToken, model);

/** The API server's own record of who sent each write to a GatewaySettings. */
function settingsWriters(): { user: string; verb: string; agent: string }[] {
  return auditEvents(server)
    .filter((e) => e.objectRef?.resource === 'gatewaysettings' && e.objectRef.namespace === NS && !e.objectRef.subresource && e.verb === 'patch' && e.responseStatus?.code === 200)
    .map((e) => ({ user: e.user.username, verb: e.verb, agent: e.userAgent ?? '' }));
}

describe('owner console in a cluster: settings and model switches', () => {
  it('a viewer sees the settings in force but no switches, and a forged change is refused by the API server naming them', { timeout: 120_000 }, async () => {
    const cookie = await session(server.userTokens.viola as string);
    const settings = await call(cookie, 'GET', `settings?company=${NS}`);
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ version: null, writable: false, repositoryAttribution: false });
    const models = await call(cookie, 'GET', `models?company=${NS}`);
    expect(models.body).toMatchObject({ version: null, writable: false });
    const before = await get(kube, 'GatewaySettings', NS, 'settings');
    // The version a viewer cannot read is taken from the object itself: only RBAC stands in the way.
    const version = String(before?.metadata.generation);
    const forged = await call(cookie, 'PUT', 'settings', { company: NS, version, secretScanning: true });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toContain('User "viola" cannot list resource "gatewaysettings"');
    const forgedSwitch = await call(cookie, 'PUT', 'models', { company: NS, version, provider: 'vendor', id: 'claude-haiku-4-5-20251001', on: false });
    expect(forgedSwitch.status).toBe(403);
    expect((await get(kube, 'GatewaySettings', NS, 'settings'))?.spec).toEqual(before?.spec);
    expect(settingsWriters().filter((w) => w.user === 'viola')).toEqual([]);
  });

  it('an editor’s invalid time zone is refused with the operator’s words and nothing is sent', { timeout: 120_000 }, async () => {
    const cookie = await session(server.userTokens.edgar as string);
    const settings = await call(cookie, 'GET', `settings?company=${NS}`);
    expect(settings.body).toMatchObject({ writable: true });
    const version = settings.body.version as string;
    const before = await get(kube, 'GatewaySettings', NS, 'settings');
    const bad = await call(cookie, 'PUT', 'settings', { company: NS, version, spendLimits: { timeZone: 'Mars/Olympus_Mons', perToken: [], company: [] } });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('The change was refused, nothing was written: spec.spendLimits.timeZone: "Mars/Olympus_Mons" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)');
    expect((await get(kube, 'GatewaySettings', NS, 'settings'))?.spec).toEqual(before?.spec);
    expect(settingsWriters().filter((w) => w.user === 'edgar')).toEqual([]);
  });

  it('an editor’s spend limit lands in the GatewaySettings as their own request, and the operator makes the gateway answer 402', { timeout: 180_000 }, async () => {
    expect(await ask('claude-haiku-4-5')).toBe(200);
    const cookie = await session(server.userTokens.edgar as string);
    const version = (await call(cookie, 'GET', `settings?company=${NS}`)).body.version as string;
    const saved = await call(cookie, 'PUT', 'settings', { company: NS, version, spendLimits: { timeZone: 'Europe/Paris', perToken: [{ window: 'daily', usd: 0 }], company: [] } });
    expect(saved.status).toBe(200);
    const stored = await get(kube, 'GatewaySettings', NS, 'settings');
    expect(String(stored?.metadata.generation)).toBe(saved.body.version);
    expect((stored?.spec as { spendLimits?: unknown }).spendLimits).toMatchObject({ timeZone: 'Europe/Paris', perToken: [{ window: 'daily', usd: 0 }], company: [] });
    expect(JSON.stringify((stored?.metadata as { managedFields?: unknown }).managedFields)).toContain('gw-console');
    // The gateway's own identity here is the test's cluster admin: the patch is recorded as the editor's.
    expect(settingsWriters().filter((w) => w.user === 'edgar')).toHaveLength(1);
    await eventually('the gateway refuses the caller with 402', async () => (await ask('claude-haiku-4-5')) === 402, 60_000, 250);
    const again = await call(cookie, 'PUT', 'settings', { company: NS, version: saved.body.version, spendLimits: { timeZone: 'UTC', perToken: [], company: [] } });
    expect(again.status).toBe(200);
    await eventually('the gateway serves the caller again', async () => (await ask('claude-haiku-4-5')) === 200, 60_000, 250);
  });

  it('an editor switches a model off and on: the gateway refuses it while off', { timeout: 180_000 }, async () => {
    const cookie = await session(server.userTokens.edgar as string);
    const models = await call(cookie, 'GET', `models?company=${NS}`);
    expect(models.body.writable).toBe(true);
    const vendorModels = (models.body.providers as { provider: string; models: { id: string; on: boolean }[] }[]).find((p) => p.provider === 'vendor');
    expect(vendorModels?.models.find((m) => m.id === 'claude-haiku-4-5-20251001')?.on).toBe(true);
    const off = await call(cookie, 'PUT', 'models', { company: NS, version: models.body.version, provider: 'vendor', id: 'claude-haiku-4-5-20251001', on: false });
    expect(off.status).toBe(200);
    const enabled = ((await get(kube, 'GatewaySettings', NS, 'settings'))?.spec as { models?: { vendor?: { enabled: string[] } } }).models?.vendor?.enabled;
    expect(enabled).not.toContain('claude-haiku-4-5-20251001');
    expect(enabled?.length).toBeGreaterThan(0);
    await eventually('the gateway refuses the switched-off model', async () => (await ask('claude-haiku-4-5')) === 403, 60_000, 250);
    const on = await call(cookie, 'PUT', 'models', { company: NS, version: off.body.version, provider: 'vendor', id: 'claude-haiku-4-5-20251001', on: true });
    expect(on.status).toBe(200);
    await eventually('the gateway serves the model again', async () => (await ask('claude-haiku-4-5')) === 200, 60_000, 250);
  });

  it('a change made by someone else since the page loaded is not overwritten: 409 naming what changed', { timeout: 120_000 }, async () => {
    const cookie = await session(server.userTokens.edgar as string);
    const version = (await call(cookie, 'GET', `settings?company=${NS}`)).body.version as string;
    await patchSpec(kube, 'GatewaySettings', NS, 'settings', { endUserRecording: true });
    const stale = await call(cookie, 'PUT', 'settings', { company: NS, version, secretScanning: true });
    expect(stale.status).toBe(409);
    expect(stale.body.changed).toEqual(['spec.endUserRecording']);
    expect(stale.body.error).toContain('changed since this page loaded (spec.endUserRecording changed)');
    const spec = (await get(kube, 'GatewaySettings', NS, 'settings'))?.spec as { secretScanning?: boolean; endUserRecording?: boolean };
    expect(spec).toMatchObject({ endUserRecording: true, secretScanning: false });
  });
});
