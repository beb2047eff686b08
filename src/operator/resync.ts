import type { Logger } from '../observability/logger.js';
import type { GatewayState } from '../state/state.js';
import { namespaceOf } from './kube-objects.js';
import type { OperatorMetrics } from './operator-metrics.js';
import type { NamespaceReconciler } from './reconcile-namespace.js';
import type { ClusterView } from './snapshot.js';
import type { WorkQueue } from './work-queue.js';

export interface ResyncDeps {
  readonly view: ClusterView;
  readonly state: GatewayState;
  readonly reconciler: NamespaceReconciler;
  readonly queue: WorkQueue;
  readonly metrics: OperatorMetrics;
  readonly logger: Logger;
  /** The one namespace this operator manages, or null for all. */
  readonly namespace: string | null;
}

/** Every namespace that has one of our resources, as the caches see it. */
export function namespacesWithResources(view: ClusterView): Set<string> {
  return new Set([...view.settings(), ...view.tokens(), ...view.credentials()].map(namespaceOf));
}

/**
 * A full resync: every company the cluster defines is recomputed and
 * rewritten (not skipped as unchanged), and every company Redis holds that
 * the cluster no longer defines is removed. This is what repairs a Redis
 * that lost its data or was written by someone else; events alone never
 * would, since nothing changed in the cluster.
 */
export async function resyncAll(deps: ResyncDeps): Promise<void> {
  const namespaces = namespacesWithResources(deps.view);
  try {
    for (const company of await deps.state.listCompanies()) {
      if (deps.namespace === null || company === deps.namespace) namespaces.add(company);
    }
  } catch (error) {
    // Redis away: the companies the cluster defines are still requeued (and fail and retry until it is back).
    deps.logger.warn({ detail: error instanceof Error ? error.message : String(error) }, 'resync could not list the companies in Redis');
  }
  deps.metrics.resyncs.inc();
  for (const namespace of namespaces) {
    deps.reconciler.force(namespace);
    deps.queue.add(namespace);
  }
}

/** Runs `resync` every interval while `active()` says this replica should. */
export class PeriodicResync {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly active: () => boolean,
    private readonly resync: () => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.active()) return;
      this.resync().catch((error: unknown) => this.logger.error({ detail: error instanceof Error ? error.message : String(error) }, 'resync failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
