import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RbacAuthorizationV1Api, type RbacV1Subject, type V1ClusterRole } from '@kubernetes/client-node';
import { FIXTURES, FULLNAME, find, renderChart } from '../integration/chart/chart-support.js';
import { waitForReady, type Kube } from '../integration/operator/kube-helpers.js';
import { startGateway, type GatewayProcess } from './gateway-process.js';
import type { KubeApiServer } from './kube-apiserver.js';
import { startOperator, type OperatorProcess } from './operator-process.js';
import type { TestRedis } from './redis-server.js';

/*
 * The owner console in the cluster layout, shared by the tests that drive it
 * through the API and through a browser: the chart's console roles installed
 * as helm renders them, the operator and a `gw serve` that reads Kubernetes
 * identities, and the API server's audit log to say who wrote what.
 */

/** The chart's console-editor and usage-viewer ClusterRoles, created from the rendered chart: what they allow is what is tested. */
export async function installConsoleRoles(kube: Kube): Promise<{ viewer: string; editor: string }> {
  const chart = await renderChart({ name: 'usage-postgres', file: join(FIXTURES, 'usage-postgres.yaml') }, 'gw-system');
  const rbac = kube.kc.makeApiClient(RbacAuthorizationV1Api);
  const roles = { viewer: `${FULLNAME}-usage-viewer`, editor: `${FULLNAME}-console-editor` };
  for (const name of Object.values(roles)) {
    const role = find(chart, 'ClusterRole', name) as unknown as V1ClusterRole;
    await rbac.createClusterRole({ body: { metadata: { name }, rules: role.rules ?? [] } });
  }
  return roles;
}

/** Binds a ClusterRole to one subject in one namespace. */
export async function bindRole(kube: Kube, namespace: string, name: string, role: string, subject: RbacV1Subject): Promise<void> {
  const rbac = kube.kc.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRoleBinding({
    namespace,
    body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [subject] },
  });
}

export const userSubject = (name: string): RbacV1Subject => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name });

/**
 * The operator (once `token` is Ready in `namespace`) and then `gw serve` with Redis state and Kubernetes sign-in, its
 * own identity the server's admin (were it the one writing, every refusal the tests check would pass).
 */
export async function startConsoleCluster(opts: {
  server: KubeApiServer;
  redis: TestRedis;
  kube: Kube;
  encryptionKey: string;
  identity: string;
  ready: readonly { kind: Parameters<typeof waitForReady>[1]; namespace: string; name: string }[];
}): Promise<{ operator: OperatorProcess; gateway: GatewayProcess }> {
  const operator = await startOperator({
    kubeconfig: opts.server.kubeconfigPath,
    redisUrl: opts.redis.url,
    encryptionKey: opts.encryptionKey,
    identity: opts.identity,
    args: ['--lease-namespace', 'default', '--lease-name', `gw-${opts.identity}`, '--lease-duration-seconds', '4'],
  });
  for (const { kind, namespace, name } of opts.ready) await waitForReady(opts.kube, kind, namespace, name, { status: 'True' }, 60_000);
  const gateway = await startGateway('', {
    args: ['--redis', opts.redis.url, '--admin-auth', 'kubernetes', '--kubeconfig', opts.server.kubeconfigPath],
    env: { GW_ENCRYPTION_KEY: opts.encryptionKey },
  });
  return { operator, gateway };
}

export interface AuditEvent {
  verb: string;
  user: { username: string };
  objectRef?: { resource?: string; namespace?: string; name?: string; subresource?: string };
  responseStatus?: { code?: number };
  userAgent?: string;
}

/** The API server's own record of each request: who it authenticated, what, and its answer. */
export function auditEvents(server: KubeApiServer): AuditEvent[] {
  return readFileSync(server.auditLogPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** The status the gateway answers `token` with for `model`, through the real SDK. */
export async function answerStatus(gatewayUrl: string, token: string, model: string): Promise<number> {
  const sdk = new Anthropic({ baseURL: gatewayUrl, authToken: token, apiKey: null, maxRetries: 0 });
  try {
    await sdk.messages.create({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    return 200;
  } catch (error) {
    if (error instanceof Anthropic.APIError && typeof error.status === 'number') return error.status;
    throw error;
  }
}
