import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiException, ApiextensionsV1Api, AuthorizationV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, VersionApi, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { rejection } from '../../support/kube-rejection.js';

// Building kube-apiserver when the cache is empty takes minutes; `make test`
// builds it beforehand, so this long hook timeout only matters for a
// developer running this file on a fresh machine.
const START_TIMEOUT_MS = 45 * 60_000;

let server: KubeApiServer;
let kc: KubeConfig;
const ns = `mg-it-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  server = await startKubeApiServer();
  kc = new KubeConfig();
  kc.loadFromFile(server.kubeconfigPath);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
});

describe('real kube-apiserver', () => {
  it('reports the pinned Kubernetes version (the one test/tools/build-kube.sh builds)', async () => {
    const pinned = /^KUBE_VERSION=(v1\.(\d+)\.\d+)\b/m.exec(readFileSync(join(import.meta.dirname, '..', '..', 'tools', 'build-kube.sh'), 'utf8'));
    expect(pinned, 'KUBE_VERSION in test/tools/build-kube.sh').not.toBeNull();
    const info = await kc.makeApiClient(VersionApi).getCode();
    expect(info.gitVersion).toBe(pinned?.[1]);
    expect(info.major).toBe('1');
    expect(info.minor).toBe(pinned?.[2]);
  });

  it('creates a namespace and a ConfigMap and reads them back', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: ns, labels: { suite: 'kube-it' } } } });
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'settings' }, data: { greeting: 'hello', limit: '42' } },
    });

    const readNs = await core.readNamespace({ name: ns });
    expect(readNs.metadata?.labels?.suite).toBe('kube-it');
    expect(readNs.status?.phase).toBe('Active');

    const cm = await core.readNamespacedConfigMap({ namespace: ns, name: 'settings' });
    expect(cm.data).toEqual({ greeting: 'hello', limit: '42' });

    const list = await core.listNamespacedConfigMap({ namespace: ns });
    expect(list.items.map((i) => i.metadata?.name)).toContain('settings');
  });

  it('honours server-side dry run', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      dryRun: 'All',
      body: { metadata: { name: 'dry-run-only' }, data: { a: 'b' } },
    });
    expect(created.metadata?.name).toBe('dry-run-only');
    const missing = await rejection(core.readNamespacedConfigMap({ namespace: 'default', name: 'dry-run-only' }));
    expect(missing.code).toBe(404);
  });

  it('authenticates tokens and authorizes with RBAC', async () => {
    const bad = new KubeConfig();
    bad.loadFromOptions({
      clusters: [{ name: 'c', server: server.url, caFile: server.caFile }],
      users: [{ name: 'u', token: 'not-a-valid-token' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const denied = await rejection(bad.makeApiClient(CoreV1Api).listNamespace());
    expect(denied.code).toBe(401);

    const authz = kc.makeApiClient(AuthorizationV1Api);
    const review = (user: string, groups: string[]) =>
      authz.createSubjectAccessReview({
        body: {
          spec: { user, groups, resourceAttributes: { verb: 'list', resource: 'secrets', namespace: ns } },
        },
      });
    expect((await review('nobody', ['system:authenticated'])).status?.allowed).toBe(false);
    expect((await review('root', ['system:masters'])).status?.allowed).toBe(true);
  });

  it('serves a CustomResourceDefinition and enforces its schema', async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    const crd: V1CustomResourceDefinition = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.test' },
      spec: {
        group: 'example.test',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['size'],
                    properties: {
                      size: { type: 'integer', minimum: 1, maximum: 10 },
                      color: { type: 'string', _enum: ['red', 'blue'] },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    await ext.createCustomResourceDefinition({ body: crd });

    // Wait (bounded) for the CRD to be Established before using it.
    for (let i = 0; ; i++) {
      const got = await ext.readCustomResourceDefinition({ name: 'widgets.example.test' });
      const established = got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      if (established) break;
      if (i >= 100) throw new Error('CRD widgets.example.test never became Established');
      await new Promise((r) => setTimeout(r, 200));
    }

    const objects = kc.makeApiClient(CustomObjectsApi);
    const widget = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: 'example.test/v1',
      kind: 'Widget',
      metadata: { name },
      spec,
    });
    const create = (body: unknown) => objects.createNamespacedCustomObject({ group: 'example.test', version: 'v1', namespace: ns, plural: 'widgets', body });

    // The resource endpoint can lag the Established condition for a moment.
    for (let i = 0; ; i++) {
      try {
        await create(widget('good', { size: 3, color: 'blue' }));
        break;
      } catch (err) {
        if (!(err instanceof ApiException && err.code === 404) || i >= 50) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const good = (await objects.getNamespacedCustomObject({
      group: 'example.test',
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      name: 'good',
    })) as { spec: { size: number; color: string } };
    expect(good.spec).toEqual({ size: 3, color: 'blue' });

    const wrongType = await rejection(create(widget('bad-type', { size: 'big' })));
    expect(wrongType.code).toBe(422);
    expect(wrongType.message).toContain('spec.size');

    const outOfRange = await rejection(create(widget('bad-range', { size: 11, color: 'green' })));
    expect(outOfRange.code).toBe(422);
    expect(outOfRange.message).toContain('spec.size');
    expect(outOfRange.message).toContain('spec.color');

    const missing = await rejection(create(widget('bad-missing', { color: 'red' })));
    expect(missing.code).toBe(422);
    expect(missing.message).toContain('spec.size');
  });
});
