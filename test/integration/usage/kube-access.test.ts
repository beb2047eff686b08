import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { ADMIN_TOKEN, GW_BIN, startGateway, type GatewayProcess } from '../../support/gateway-process.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';

const run = promisify(execFile);

/**
 * The Usage and Logs API with --admin-auth kubernetes on a real
 * kube-apiserver: Kubernetes bearer tokens (TokenReview), each request a
 * SubjectAccessReview for `get` on usage/logs in group gw.io in the
 * company's namespace, so ordinary Roles and bindings decide.
 */
describe('per-company access to Usage and Logs by Kubernetes RBAC', () => {
  let server: KubeApiServer;
  let vendor: MockProvider;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    [server, vendor] = await Promise.all([startKubeApiServer({ users: [{ name: 'alice' }, { name: 'fiona' }, { name: 'mallory' }] }), startMockProvider()]);
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    // What the chart's ClusterRoles grant: read Usage and Logs (a viewer role, bound per namespace or cluster-wide).
    await rbac.createClusterRole({
      body: {
        metadata: { name: 'gw-usage-viewer' },
        rules: [{ apiGroups: ['gw.io'], resources: ['usage', 'logs'], verbs: ['get'] }],
      },
    });
    const core = (await import('@kubernetes/client-node')).CoreV1Api;
    const coreApi = kc.makeApiClient(core);
    for (const ns of ['acme', 'globex']) await coreApi.createNamespace({ body: { metadata: { name: ns } } });
    await rbac.createNamespacedRoleBinding({
      namespace: 'acme',
      body: {
        metadata: { name: 'alice-reads-usage' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gw-usage-viewer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      },
    });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: 'fiona-reads-all-usage' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'gw-usage-viewer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'fiona' }],
      },
    });
    const config = writeGatewayConfig({
      credentials: [{ name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-kube-access-0000000' }],
    });
    // The gateway reviews tokens with its own identity (here the test admin; in a cluster its service account).
    gateway = await startGateway(config.file, { args: ['--admin-auth', 'kubernetes', '--kubeconfig', server.kubeconfigPath] });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.tokens.alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [] }),
      });
      await res.text();
    }
  }, 600_000);

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
    await server?.stop();
  });

  async function get(path: string, token: string): Promise<{ status: number; body: { data?: unknown[]; error?: { type: string; message: string } } }> {
    const res = await fetch(`${gateway.adminUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as { data?: unknown[]; error?: { type: string; message: string } } };
  }

  it('a caller bound to one namespace reads its company and gets 403 for another and for all', async () => {
    const alice = server.userTokens.alice as string;
    let logs = await get('/admin/v1/logs?company=acme', alice);
    for (let i = 0; i < 100 && (logs.body.data ?? []).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      logs = await get('/admin/v1/logs?company=acme', alice);
    }
    expect(logs.status).toBe(200);
    expect(logs.body.data).toHaveLength(2);
    expect((await get('/admin/v1/usage?company=acme&group_by=model', alice)).status).toBe(200);
    const other = await get('/admin/v1/usage?company=globex', alice);
    expect(other.status).toBe(403);
    expect(other.body.error?.type).toBe('permission_error');
    expect(other.body.error?.message).toContain('alice may not get usage.gw.io in namespace "globex"');
    expect((await get('/admin/v1/logs', alice)).status).toBe(403);
  });

  it('a cluster-wide binding reads every company; no binding reads none; a token Kubernetes does not know is 401', async () => {
    const fiona = server.userTokens.fiona as string;
    expect((await get('/admin/v1/logs', fiona)).body.data).toHaveLength(2);
    expect((await get('/admin/v1/usage?company=globex', fiona)).status).toBe(200);
    expect((await get('/admin/v1/logs?company=acme', server.userTokens.mallory as string)).status).toBe(403);
    expect((await get('/admin/v1/logs?company=acme', 'not-a-kubernetes-token')).status).toBe(401);
  });

  it('the break-glass admin token still reads everything', async () => {
    expect((await get('/admin/v1/logs', ADMIN_TOKEN)).body.data).toHaveLength(2);
  });

  it('gw usage with a Kubernetes token: the company the caller may read, refused for another', async () => {
    const env = { ...process.env, GW_ADMIN_TOKEN: server.userTokens.alice as string };
    const ok = await run(process.execPath, [GW_BIN, 'usage', '--company', 'acme', '--by', 'address', '--json', '--admin-url', gateway.adminUrl], { env });
    expect(JSON.parse(ok.stdout)).toEqual([expect.objectContaining({ key: 'alice@acme.example', requests: 2 })]);
    const refused = await run(process.execPath, [GW_BIN, 'usage', '--company', 'globex', '--admin-url', gateway.adminUrl], { env }).catch((e: { code: number; stderr: string }) => e);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toContain('may not get usage.gw.io in namespace "globex"');
  });
});
