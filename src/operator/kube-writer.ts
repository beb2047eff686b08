import type { CoreV1Event, V1Secret } from '@kubernetes/client-node';
import type { Secret } from '../resources/types.js';
import { apiStatus, MERGE_PATCH, type KubeClients } from './kube-client.js';
import { CRD_VERSION, GROUP, PLURALS, type ManagedKind } from './kube-objects.js';

export interface EventInput {
  readonly involved: { kind: ManagedKind; namespace: string; name: string; uid?: string; resourceVersion?: string };
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/**
 * Every write the operator makes to the API server, in one narrow
 * interface: reconcile decides, this carries it out. A resource that
 * vanished meanwhile (404) is not an error for status and finalizer writes:
 * there is nothing left to write to.
 */
export interface KubeWriter {
  patchStatus(kind: ManagedKind, namespace: string, name: string, patch: { status: Record<string, unknown> }): Promise<void>;
  /** Replace the finalizer list, only if the object is still at `resourceVersion` (409 otherwise). */
  setFinalizers(kind: ManagedKind, namespace: string, name: string, finalizers: string[], resourceVersion: string | undefined): Promise<void>;
  /** Create a Secret; null when one of that name already exists. */
  createSecret(secret: Secret): Promise<Secret | null>;
  readSecret(namespace: string, name: string): Promise<Secret | null>;
  /** Delete a Secret, only if it is still the one with this uid. */
  deleteSecret(namespace: string, name: string, uid: string | undefined): Promise<void>;
  createEvent(event: EventInput, component: { name: string; instance: string }): Promise<void>;
}

/**
 * Whether a GatewayToken of this name exists, asked of the API server
 * itself (a list without a resourceVersion is a quorum read), never of the
 * informer cache: a cache that lags must not make a live token look deleted.
 * A list by name needs only the `list` the informers already have.
 */
export type TokenLookup = (namespace: string, name: string) => Promise<boolean>;

export function liveTokenLookup(clients: KubeClients): TokenLookup {
  return async (namespace, name) => {
    const list = (await clients.custom.listNamespacedCustomObject({ group: GROUP, version: CRD_VERSION, namespace, plural: PLURALS.GatewayToken, fieldSelector: `metadata.name=${name}` })) as {
      items?: unknown[];
    };
    return (list.items ?? []).length > 0;
  };
}

/** The namespace is being deleted: the API server refuses anything new in it (NamespaceLifecycle). */
export class NamespaceTerminating extends Error {}

function terminating(error: unknown): boolean {
  if (apiStatus(error) !== 403) return false;
  const body = (error as { body?: unknown }).body;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  return text.includes('NamespaceTerminating') || text.includes('because it is being terminated');
}

function ignoreGone(error: unknown): void {
  if (apiStatus(error) !== 404) throw error;
}

/** Secrets as the reconcile reads them (plain JSON), whatever client-node handed us. */
export function toSecret(raw: V1Secret | Record<string, unknown>): Secret {
  const s = raw as V1Secret;
  const meta = s.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: meta.name ?? '',
      namespace: meta.namespace ?? 'default',
      ...(meta.uid ? { uid: meta.uid } : {}),
      ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
      ...(meta.ownerReferences
        ? {
            ownerReferences: meta.ownerReferences.map((r) => ({
              apiVersion: r.apiVersion,
              kind: r.kind,
              name: r.name,
              uid: r.uid,
              ...(r.controller !== undefined ? { controller: r.controller } : {}),
            })),
          }
        : {}),
      ...(meta.labels ? { labels: meta.labels } : {}),
    },
    ...(s.type ? { type: s.type } : {}),
    ...(s.data ? { data: s.data } : {}),
  };
}

export function clientNodeWriter(clients: KubeClients): KubeWriter {
  const { core, custom } = clients;
  const target = (kind: ManagedKind, namespace: string, name: string) => ({ group: GROUP, version: CRD_VERSION, namespace, plural: PLURALS[kind], name });
  return {
    async patchStatus(kind, namespace, name, patch) {
      await custom.patchNamespacedCustomObjectStatus({ ...target(kind, namespace, name), body: patch }, MERGE_PATCH).catch(ignoreGone);
    },
    async setFinalizers(kind, namespace, name, finalizers, resourceVersion) {
      const metadata: Record<string, unknown> = { finalizers };
      if (resourceVersion) metadata.resourceVersion = resourceVersion;
      await custom.patchNamespacedCustomObject({ ...target(kind, namespace, name), body: { metadata } }, MERGE_PATCH).catch(ignoreGone);
    },
    async createSecret(secret) {
      try {
        const created = await core.createNamespacedSecret({ namespace: secret.metadata.namespace ?? 'default', body: secret as unknown as V1Secret });
        return toSecret(created);
      } catch (error) {
        if (apiStatus(error) === 409) return null;
        if (terminating(error)) throw new NamespaceTerminating(`namespace ${secret.metadata.namespace ?? 'default'} is being deleted`);
        throw error;
      }
    },
    async readSecret(namespace, name) {
      try {
        return toSecret(await core.readNamespacedSecret({ namespace, name }));
      } catch (error) {
        if (apiStatus(error) === 404) return null;
        throw error;
      }
    },
    async deleteSecret(namespace, name, uid) {
      await core.deleteNamespacedSecret({ namespace, name, body: uid ? { preconditions: { uid } } : {} }).catch((error: unknown) => {
        // 409: the uid precondition failed, so the Secret is no longer the one we meant.
        if (apiStatus(error) !== 409) ignoreGone(error);
      });
    },
    async createEvent(event, component) {
      const now = new Date();
      const body: CoreV1Event = {
        metadata: { generateName: `${event.involved.name}.`, namespace: event.involved.namespace },
        involvedObject: {
          apiVersion: `${GROUP}/${CRD_VERSION}`,
          kind: event.involved.kind,
          namespace: event.involved.namespace,
          name: event.involved.name,
          ...(event.involved.uid ? { uid: event.involved.uid } : {}),
          ...(event.involved.resourceVersion ? { resourceVersion: event.involved.resourceVersion } : {}),
        },
        type: event.type,
        reason: event.reason,
        message: event.message.slice(0, 1024),
        source: { component: component.name },
        reportingComponent: `${GROUP}/${component.name}`,
        reportingInstance: component.instance.slice(0, 128),
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      };
      await core.createNamespacedEvent({ namespace: event.involved.namespace, body });
    },
  };
}
