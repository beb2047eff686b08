import { AuthorizationV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

/** What the API server said no to, in its own words, with its status. */
export class ClusterRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Token changes in a cluster, made with the signed-in person's own bearer
 * token: RBAC on GatewayToken decides, the audit log and managedFields
 * record that person's request, and the console's service account writes
 * nothing on anyone's behalf. The operator then does the rest, as for
 * `kubectl apply`.
 */
export class ClusterTokenWriter {
  constructor(private readonly base: KubeConfig) {}

  private as(bearer: string): KubeConfig {
    const cluster = this.base.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig names no cluster');
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: [{ name: 'console-person', token: bearer }],
      contexts: [{ name: 'console', cluster: cluster.name, user: 'console-person' }],
      currentContext: 'console',
    });
    return kc;
  }

  /** SelfSubjectAccessReview as that person: whether to show the write controls (the API server still decides). */
  async mayCreateTokens(bearer: string, company: string): Promise<boolean> {
    const review = await this.as(bearer)
      .makeApiClient(AuthorizationV1Api)
      .createSelfSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { group: 'gw.io', resource: 'gatewaytokens', verb: 'create', namespace: company } },
        },
      });
    return review.status?.allowed === true;
  }

  async create(bearer: string, company: string, name: string, tokenHash: string, createdAt: string): Promise<void> {
    await refusals(() =>
      this.as(bearer)
        .makeApiClient(CustomObjectsApi)
        .createNamespacedCustomObject({
          group: 'gw.io',
          version: 'v1alpha1',
          namespace: company,
          plural: 'gatewaytokens',
          fieldManager: 'gw-console',
          body: { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name, namespace: company, annotations: { 'gw.io/created-at': createdAt } }, spec: { tokenHash } },
        }),
    );
  }

  async revoke(bearer: string, company: string, name: string): Promise<void> {
    await refusals(() =>
      this.as(bearer)
        .makeApiClient(CustomObjectsApi)
        .patchNamespacedCustomObject(
          { group: 'gw.io', version: 'v1alpha1', namespace: company, plural: 'gatewaytokens', name, fieldManager: 'gw-console', body: { spec: { revoked: true } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
    );
  }
}

async function refusals<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const e = error as { code?: unknown; body?: unknown };
    if (typeof e.code === 'number' && e.code >= 400 && e.code < 500) {
      let message = `the API server answered ${e.code}`;
      try {
        const body = (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as { message?: unknown } | undefined;
        if (typeof body?.message === 'string') message = body.message;
      } catch {
        // The status alone says enough.
      }
      throw new ClusterRefusal(e.code, message);
    }
    throw error;
  }
}
