import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig, RbacAuthorizationV1Api, type KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import type { Logger } from '../../../src/observability/logger.js';
import { kubeClients } from '../../../src/operator/kube-client.js';
import { createInformers, type Informers } from '../../../src/operator/informers.js';
import { OperatorMetrics } from '../../../src/operator/operator-metrics.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { create, createNamespace, eventually, gwObject, installCrds, kubeFor, type Kube } from './kube-helpers.js';

// The operator's informers on a real API server whose watch is refused
// (RBAC grants list but not watch): the error is logged in one line, the
// informer restarts, and once watch is granted it follows changes again.
const START_TIMEOUT_MS = 45 * 60_000;
const NS = 'informed';

let server: KubeApiServer;
let kube: Kube;
let informers: Informers | null = null;

beforeAll(async () => {
  server = await startKubeApiServer();
  kube = kubeFor(server);
  await installCrds(kube);
  await createNamespace(kube, NS);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await informers?.stop();
  await server?.stop();
});

function rules(verbs: string[]): Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }> {
  return [
    { apiGroups: ['gw.io'], resources: ['gatewaytokens', 'providercredentials', 'gatewaysettings'], verbs },
    { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] },
  ];
}

describe('informer recovery', () => {
  it('restarts after a refused watch, says why in one line, and follows changes once the watch is allowed', { timeout: 120_000 }, async () => {
    const rbac = kube.kc.makeApiClient(RbacAuthorizationV1Api);
    await kube.core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name: 'watcher' } } });
    await rbac.createNamespacedRole({ namespace: NS, body: { metadata: { name: 'watcher' }, rules: rules(['list']) } });
    await rbac.createNamespacedRoleBinding({
      namespace: NS,
      body: {
        metadata: { name: 'watcher' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'watcher' },
        subjects: [{ kind: 'ServiceAccount', name: 'watcher', namespace: NS }],
      },
    });
    const request = await kube.core.createNamespacedServiceAccountToken({ namespace: NS, name: 'watcher', body: { spec: { audiences: [], expirationSeconds: 3600 } } });
    const config = JSON.parse(readFileSync(server.kubeconfigPath, 'utf8')) as { users: Array<{ user: { token: string } }> };
    (config.users[0] as { user: { token: string } }).user.token = request.status?.token as string;
    const path = join(server.dir, 'watcher-kubeconfig');
    writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
    const kc = new KubeConfig();
    kc.loadFromFile(path);

    const warnings: string[] = [];
    const logger = { warn: (o: { detail?: string }, m: string) => warnings.push(`${m}: ${o.detail ?? ''}`), info: () => {}, debug: () => {}, error: () => {} } as unknown as Logger;
    const metrics = new OperatorMetrics();
    informers = createInformers(kubeClients(kc), NS, logger, metrics);
    await informers.start();
    // Listed, then the watch is refused: a restart, and a one-line reason naming the missing verb.
    await eventually('a refused watch', () => warnings.some((w) => w.includes('list or watch failed')), 30_000, 50);
    const line = warnings.find((w) => w.includes('list or watch failed')) as string;
    expect(line).not.toContain('\n');
    expect(line).not.toContain('Headers');

    await rbac.replaceNamespacedRole({ name: 'watcher', namespace: NS, body: { metadata: { name: 'watcher' }, rules: rules(['list', 'watch']) } });
    const hash = hashToken(generateToken());
    await create(kube, gwObject('GatewayToken', NS, 'seen-after-recovery', { tokenHash: hash }));
    await eventually('the informer sees the new token', () => informers?.view.tokens(NS).some((t) => (t as KubernetesObject).metadata?.name === 'seen-after-recovery'), 60_000, 100);
    expect(informers.synced()).toBe(true);
  });
});
