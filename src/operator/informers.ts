import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../observability/logger.js';
import { kubeErrorLine, type KubeClients } from './kube-client.js';
import { CRD_VERSION, GROUP, PLURALS, SECRET_SELECTOR, type ClusterCredential, type ClusterSettings, type ClusterToken, type ManagedKind } from './kube-objects.js';
import { toSecret } from './kube-writer.js';
import type { OperatorMetrics } from './operator-metrics.js';
import type { ClusterView } from './snapshot.js';

export type ChangeKind = 'add' | 'update' | 'delete';

const RESTART_MIN_MS = 500;
const RESTART_MAX_MS = 30_000;

/**
 * One list+watch cache (client-node's ListWatch) that keeps itself alive:
 * ListWatch stops on an error other than 410 Gone, so this restarts it with
 * a backoff, resuming from the last resourceVersion (and relisting when the
 * server says that version is gone). `synced` turns true once the first
 * list has filled the cache; before that the cache must not be trusted to
 * say that something does not exist.
 */
export class ResourceInformer<T extends KubernetesObject> {
  private readonly cache: ListWatch<T>;
  private listedOnce = false;
  private stopped = false;
  private restartDelay = RESTART_MIN_MS;
  private restartTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly resource: string,
    kc: KubeConfig,
    path: string,
    list: () => Promise<KubernetesListObject<T>>,
    private readonly logger: Logger,
    private readonly metrics: OperatorMetrics,
    labelSelector?: string,
  ) {
    const listed = async (): Promise<KubernetesListObject<T>> => {
      const result = await list();
      this.restartDelay = RESTART_MIN_MS;
      return result;
    };
    this.cache = new ListWatch<T>(path, new Watch(kc), listed, false, labelSelector);
    this.cache.on('error', (error: unknown) => this.onError(error));
    metrics.informerSynced.set({ resource }, 0);
  }

  get synced(): boolean {
    return this.listedOnce;
  }

  on(change: ChangeKind, callback: (obj: T) => void): void {
    this.cache.on(change, callback);
  }

  list(namespace?: string): readonly T[] {
    return this.cache.list(namespace);
  }

  /** Resolves once the first list is in the cache; failed attempts are retried (see onError). */
  async start(): Promise<void> {
    this.cache.start().catch((error: unknown) => this.onError(error));
    // ListWatch fills the cache and sets the resourceVersion in one go after a list succeeds.
    while (!this.stopped && this.cache.latestResourceVersion() === '') await new Promise((resolve) => setTimeout(resolve, 25));
    if (this.stopped) return;
    this.listedOnce = true;
    this.metrics.informerSynced.set({ resource: this.resource }, 1);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.cache.stop();
  }

  private nextDelay(): number {
    const delay = this.restartDelay;
    this.restartDelay = Math.min(RESTART_MAX_MS, this.restartDelay * 2);
    return delay;
  }

  private onError(error: unknown): void {
    if (this.stopped) return;
    this.logger.warn({ resource: this.resource, detail: kubeErrorLine(error) }, 'list or watch failed; restarting');
    if (this.restartTimer) return;
    this.metrics.informerRestarts.inc({ resource: this.resource });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopped) this.cache.start().catch((error: unknown) => this.onError(error));
    }, this.nextDelay());
  }
}

export interface Informers {
  readonly tokens: ResourceInformer<ClusterToken & KubernetesObject>;
  readonly credentials: ResourceInformer<ClusterCredential & KubernetesObject>;
  readonly settings: ResourceInformer<ClusterSettings & KubernetesObject>;
  readonly secrets: ResourceInformer<KubernetesObject>;
  readonly view: ClusterView;
  synced(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The four caches the operator reconciles from: the three kinds (in every
 * namespace, or one) and the labelled Secrets beside them.
 */
export function createInformers(clients: KubeClients, namespace: string | null, logger: Logger, metrics: OperatorMetrics): Informers {
  const kc = clients.config;
  const custom = <T extends KubernetesObject>(kind: ManagedKind): ResourceInformer<T> => {
    const plural = PLURALS[kind];
    const path = namespace ? `/apis/${GROUP}/${CRD_VERSION}/namespaces/${namespace}/${plural}` : `/apis/${GROUP}/${CRD_VERSION}/${plural}`;
    const list = async (): Promise<KubernetesListObject<T>> =>
      (namespace
        ? await clients.custom.listNamespacedCustomObject({ group: GROUP, version: CRD_VERSION, namespace, plural })
        : await clients.custom.listClusterCustomObject({ group: GROUP, version: CRD_VERSION, plural })) as KubernetesListObject<T>;
    return new ResourceInformer<T>(plural, kc, path, list, logger, metrics);
  };
  const tokens = custom<ClusterToken & KubernetesObject>('GatewayToken');
  const credentials = custom<ClusterCredential & KubernetesObject>('ProviderCredential');
  const settings = custom<ClusterSettings & KubernetesObject>('GatewaySettings');
  const secretPath = namespace ? `/api/v1/namespaces/${namespace}/secrets` : '/api/v1/secrets';
  const listSecrets = async (): Promise<KubernetesListObject<KubernetesObject>> =>
    (namespace
      ? await clients.core.listNamespacedSecret({ namespace, labelSelector: SECRET_SELECTOR })
      : await clients.core.listSecretForAllNamespaces({ labelSelector: SECRET_SELECTOR })) as KubernetesListObject<KubernetesObject>;
  // Only labelled Secrets: the operator never holds (or hears of) any other Secret of the cluster.
  const secrets = new ResourceInformer<KubernetesObject>('secrets', kc, secretPath, listSecrets, logger, metrics, SECRET_SELECTOR);
  const all = [settings, tokens, credentials, secrets];
  const view: ClusterView = {
    tokens: (ns) => tokens.list(ns),
    credentials: (ns) => credentials.list(ns),
    settings: (ns) => settings.list(ns),
    secrets: (ns) => secrets.list(ns).map((s) => toSecret(s as Record<string, unknown>)),
  };
  return {
    tokens,
    credentials,
    settings,
    secrets,
    view,
    synced: () => all.every((i) => i.synced),
    start: async () => {
      await Promise.all(all.map((i) => i.start()));
    },
    stop: async () => {
      await Promise.all(all.map((i) => i.stop()));
    },
  };
}
