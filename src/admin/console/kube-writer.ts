import { AuthorizationV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { GatewaySettingsSpec } from '../../resources/types.js';
import { ClusterRefusal, type ClusterSettings } from './cluster-answers.js';

interface SettingsObject {
  metadata?: { name?: string; resourceVersion?: string; generation?: number };
  spec?: GatewaySettingsSpec;
}

/** A GatewayToken as the API server holds it: what the Tokens page shows of it (never more than the hash, which it does not show). */
export interface ClusterToken {
  readonly name: string;
  readonly displayName: string | null;
  /** The console's own annotation when it made the token, else when the API server stored it. */
  readonly created: string | null;
  readonly revoked: boolean;
}

interface TokenObject {
  metadata?: { name?: string; creationTimestamp?: string | Date; annotations?: Record<string, string> };
  spec?: { displayName?: string; revoked?: boolean };
}

function settingsOf(item: SettingsObject): ClusterSettings {
  return { name: item.metadata?.name ?? '', resourceVersion: item.metadata?.resourceVersion ?? '', generation: item.metadata?.generation ?? 0, spec: item.spec ?? {} };
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

  /** SelfSubjectAccessReview as that person: whether they may change the company's GatewaySettings (shows the switches; the API server still decides). */
  async mayChangeSettings(bearer: string, company: string): Promise<boolean> {
    const review = await this.as(bearer)
      .makeApiClient(AuthorizationV1Api)
      .createSelfSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { group: 'gw.io', resource: 'gatewaysettings', verb: 'patch', namespace: company } },
        },
      });
    return review.status?.allowed === true;
  }

  /**
   * The company's GatewaySettings as that person reads it (the operator takes
   * one per namespace; with none or several there is nothing one change could
   * go to, and null is returned).
   */
  async readSettings(bearer: string, company: string): Promise<ClusterSettings | null> {
    const list = (await refusals(() =>
      this.as(bearer).makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ group: 'gw.io', version: 'v1alpha1', namespace: company, plural: 'gatewaysettings' }),
    )) as { items?: SettingsObject[] };
    const items = list.items ?? [];
    if (items.length !== 1) return null;
    return settingsOf(items[0] as SettingsObject);
  }

  /**
   * A JSON merge patch of the spec, as that person, only if the object is
   * still at `resourceVersion` (the API server answers 409 otherwise); returns
   * the object as stored.
   */
  async patchSettings(bearer: string, company: string, name: string, resourceVersion: string, spec: Partial<GatewaySettingsSpec>): Promise<ClusterSettings> {
    const patched = (await refusals(() =>
      this.as(bearer)
        .makeApiClient(CustomObjectsApi)
        .patchNamespacedCustomObject(
          { group: 'gw.io', version: 'v1alpha1', namespace: company, plural: 'gatewaysettings', name, fieldManager: 'gw-console', body: { metadata: { resourceVersion }, spec } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
    )) as SettingsObject;
    return settingsOf(patched);
  }

  /**
   * The company's GatewayTokens as that person lists them, revoked and not yet
   * reconciled ones included (the gateway's state holds only the live ones);
   * null when RBAC does not let them list (a viewer), so the page falls back
   * to what the gateway serves.
   */
  async listTokens(bearer: string, company: string): Promise<ClusterToken[] | null> {
    let list: { items?: TokenObject[] };
    try {
      list = (await refusals(() =>
        this.as(bearer).makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ group: 'gw.io', version: 'v1alpha1', namespace: company, plural: 'gatewaytokens' }),
      )) as { items?: TokenObject[] };
    } catch (error) {
      if (error instanceof ClusterRefusal && (error.status === 403 || error.status === 404)) return null;
      throw error;
    }
    return (list.items ?? []).map((item) => {
      const stored = item.metadata?.creationTimestamp;
      return {
        name: item.metadata?.name ?? '',
        displayName: item.spec?.displayName ?? null,
        created: item.metadata?.annotations?.['gw.io/created-at'] ?? (stored instanceof Date ? stored.toISOString() : (stored ?? null)),
        revoked: item.spec?.revoked === true,
      };
    });
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
