import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../../src/auth/token.js';
import { createNamespace, get, installCrds, kubeFor, type Kube } from '../../operator/kube-helpers.js';
import { startRedis, type TestRedis } from '../../../support/redis-server.js';
import { writeGatewayConfig, type TestConfig } from '../../../support/gateway-config.js';
import { ADMIN_TOKEN, startGateway, type GatewayProcess } from '../../../support/gateway-process.js';
import { startKubeApiServer, type KubeApiServer } from '../../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../../support/mock-provider.js';

/**
 * The console with --admin-auth kubernetes on a real kube-apiserver: a
 * person signs in with their own Kubernetes token, RBAC (TokenReview and
 * SubjectAccessReview) decides what they see, and a grant to read Usage is
 * never a grant to change the gateway's file.
 */
describe('owner console with Kubernetes RBAC', () => {
  let server: KubeApiServer;
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let config: TestConfig;

  beforeAll(async () => {
    [server, vendor] = await Promise.all([startKubeApiServer({ users: [{ name: 'viola' }, { name: 'nobody' }] }), startMockProvider()]);
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: { metadata: { name: 'gw-usage-viewer' }, rules: [{ apiGroups: ['gw.io'], resources: ['usage', 'logs'], verbs: ['get'] }] } });
    const core = kc.makeApiClient(CoreV1Api);
    for (const ns of ['acme', 'globex']) await core.createNamespace({ body: { metadata: { name: ns } } });
    await rbac.createNamespacedRoleBinding({
      namespace: 'acme',
      body: {
        metadata: { name: 'viola-views-acme' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gw-usage-viewer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viola' }],
      },
    });
    config = writeGatewayConfig({
      credentials: [{ name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-console-kube-000000' }],
      extraDocs: [{ apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name: 'settings', namespace: 'globex' }, spec: { tokenDomain: 'globex.example' } }],
    });
    gateway = await startGateway(config.file, { args: ['--admin-auth', 'kubernetes', '--kubeconfig', server.kubeconfigPath] });
  }, 600_000);

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
    await server?.stop();
  });

  async function signIn(token: string): Promise<{ status: number; cookie: string | null }> {
    const res = await fetch(`${gateway.adminUrl}/console/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1' },
      body: JSON.stringify({ token }),
    });
    return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? null };
  }

  function call(cookie: string, method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${gateway.adminUrl}/console/api/${path}`, {
      method,
      headers: { cookie, ...(body !== undefined ? { 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  it("a viewer bound to one namespace sees that company's Usage and Logs, is shown no write controls, and a forged write gets 403", async () => {
    const { status, cookie } = await signIn(server.userTokens.viola as string);
    expect(status).toBe(200);
    const me = (await (await call(cookie as string, 'GET', 'me')).json()) as { who: string; companies: string[]; writes: boolean };
    expect(me).toEqual({ who: 'viola', companies: ['acme'], writes: false });
    expect((await call(cookie as string, 'GET', 'usage?company=acme')).status).toBe(200);
    expect((await call(cookie as string, 'GET', 'logs?company=acme')).status).toBe(200);
    expect((await call(cookie as string, 'GET', 'usage?company=globex')).status).toBe(403);
    const before = readFileSync(config.file, 'utf8');
    const version = ((await (await call(cookie as string, 'GET', 'tokens?company=acme')).json()) as { version: string }).version;
    const forged = await call(cookie as string, 'POST', 'tokens', { company: 'acme', name: 'forged', version });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: string }).error).toContain('not change it here');
    expect(readFileSync(config.file, 'utf8')).toBe(before);
  });

  it('a Kubernetes token with no grant signs in but sees no company; a token the API server does not accept is refused', async () => {
    const { status, cookie } = await signIn(server.userTokens.nobody as string);
    expect(status).toBe(200);
    expect(await (await call(cookie as string, 'GET', 'me')).json()).toEqual({ who: 'nobody', companies: [], writes: false });
    expect((await call(cookie as string, 'GET', 'usage?company=acme')).status).toBe(403);
    expect((await signIn(`${ADMIN_TOKEN}-not-a-kube-token`)).status).toBe(401);
  });
});

describe('owner console in a cluster: token changes go to the API server with the person’s own token', () => {
  let server: KubeApiServer;
  let redis: TestRedis;
  let gateway: GatewayProcess;
  let kube: Kube;

  beforeAll(async () => {
    [server, redis] = await Promise.all([startKubeApiServer({ users: [{ name: 'viola' }, { name: 'edgar' }] }), startRedis()]);
    kube = kubeFor(server);
    await installCrds(kube);
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: { metadata: { name: 'gw-viewer' }, rules: [{ apiGroups: ['gw.io'], resources: ['usage', 'logs', 'gatewaytokens'], verbs: ['get', 'list'] }] } });
    await rbac.createClusterRole({
      body: {
        metadata: { name: 'gw-editor' },
        rules: [
          { apiGroups: ['gw.io'], resources: ['usage', 'logs'], verbs: ['get'] },
          { apiGroups: ['gw.io'], resources: ['gatewaytokens'], verbs: ['get', 'list', 'create', 'patch'] },
        ],
      },
    });
    await createNamespace(kube, 'acme');
    for (const [user, role] of [
      ['viola', 'gw-viewer'],
      ['edgar', 'gw-editor'],
    ] as const) {
      await rbac.createNamespacedRoleBinding({
        namespace: 'acme',
        body: {
          metadata: { name: `${user}-${role}` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
        },
      });
    }
    // The gateway's own identity here is the test's cluster admin: were it the one writing, the viewer's create would pass.
    gateway = await startGateway('', {
      args: ['--redis', redis.url, '--admin-auth', 'kubernetes', '--kubeconfig', server.kubeconfigPath],
      env: { GW_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
    });
  }, 600_000);

  afterAll(async () => {
    await gateway?.stop();
    await redis?.stop();
    await server?.stop();
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

  function post(cookie: string, path: string, body: unknown): Promise<Response> {
    return fetch(`${gateway.adminUrl}/console/api/${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: gateway.adminUrl, 'x-gw-console': '1' },
      body: JSON.stringify(body),
    });
  }

  it('a viewer is shown no Create token and the API server refuses their forged create, naming them', async () => {
    const cookie = await session(server.userTokens.viola as string);
    const list = (await (await fetch(`${gateway.adminUrl}/console/api/tokens?company=acme`, { headers: { cookie } })).json()) as { writable: boolean };
    expect(list.writable).toBe(false);
    const forged = await post(cookie, 'tokens', { company: 'acme', name: 'forged' });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: string }).error).toContain('User "viola" cannot create resource "gatewaytokens"');
    expect(await get(kube, 'GatewayToken', 'acme', 'forged')).toBeNull();
  });

  it('an editor creates a GatewayToken holding only the hash, and revokes it, each as themselves', async () => {
    const cookie = await session(server.userTokens.edgar as string);
    const list = (await (await fetch(`${gateway.adminUrl}/console/api/tokens?company=acme`, { headers: { cookie } })).json()) as { writable: boolean };
    expect(list.writable).toBe(true);
    const created = await post(cookie, 'tokens', { company: 'acme', name: 'edgar-bot' });
    expect(created.status).toBe(201);
    const token = ((await created.json()) as { token: string }).token;
    const obj = await get(kube, 'GatewayToken', 'acme', 'edgar-bot');
    expect((obj as unknown as { spec: { tokenHash: string } }).spec.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(obj)).not.toContain(token);
    expect(JSON.stringify((obj as unknown as { metadata: { managedFields: unknown } }).metadata.managedFields)).toContain('gw-console');
    // No operator runs here: the token is at the API server but not yet in the gateway's state, and the page still lists it.
    const rows = async (): Promise<unknown> => ((await (await fetch(`${gateway.adminUrl}/console/api/tokens?company=acme`, { headers: { cookie } })).json()) as { tokens: unknown[] }).tokens;
    expect(await rows()).toEqual([{ name: 'edgar-bot', displayName: null, address: 'edgar-bot@acme', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), state: 'not ready' }]);
    expect((await post(cookie, 'tokens/revoke', { company: 'acme', name: 'edgar-bot' })).status).toBe(200);
    expect((await get(kube, 'GatewayToken', 'acme', 'edgar-bot'))?.spec).toMatchObject({ revoked: true });
    expect(await rows()).toMatchObject([{ name: 'edgar-bot', state: 'revoked' }]);
  });
});
