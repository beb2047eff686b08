import type { Logger } from '../observability/logger.js';
import { newGeneration } from '../runtime/generation-watch.js';
import type { CompanyWriter } from '../state/state.js';
import { namespaceOf } from './kube-objects.js';
import type { RevocationLedger } from './revocation-ledger.js';
import type { OperatorMetrics } from './operator-metrics.js';
import { NotLeader } from './not-leader.js';
import type { NamespaceReconciler } from './reconcile-namespace.js';
import type { ClusterView } from './snapshot.js';
import type { WorkQueue } from './work-queue.js';

export interface ResyncDeps {
  readonly view: ClusterView;
  readonly state: Pick<CompanyWriter, 'listCompanies'>;
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

export interface RebuildDeps {
  readonly view: ClusterView;
  readonly state: Pick<CompanyWriter, 'revokeTokens' | 'listCompanies' | 'markLoaded'>;
  readonly ledger: RevocationLedger;
  readonly isLeader: () => boolean;
  /** The one namespace this operator manages, or null for all. */
  readonly namespace: string | null;
  /** The path to Redis the reconcile takes (NamespaceReconciler.toRedis): fenced with this term's epoch, revoking what vanished. */
  readonly companies: Pick<NamespaceReconciler, 'toRedis'>;
}

const REBUILD_PARALLEL = 8;

/**
 * Rewrites Redis from the cluster in one go, without the queue: every
 * revocation tombstone of the ledger, every company through the very path a
 * reconcile takes (generated Secrets, Secrets the cache cannot hold, token
 * records whose token vanished, the fenced write; companies written side by
 * side), the companies Redis holds that the cluster no longer defines
 * removed the same way, and last the generation mark that tells the data
 * planes the picture is complete again. Used when Redis lost its data (and
 * when this replica becomes the leader); the queued resync that follows does
 * the rest (finalizers, status).
 */
export async function rebuildRedis(deps: RebuildDeps): Promise<{ companies: number; tokens: number }> {
  const notLeader = (): Error => new NotLeader('lost the leader Lease during a rebuild');
  if (!deps.isLeader()) throw notLeader();
  await deps.state.revokeTokens(deps.ledger.all());
  const namespaces = [...namespacesWithResources(deps.view)];
  const defined = new Set(namespaces);
  for (const company of await deps.state.listCompanies()) {
    if (!defined.has(company) && (deps.namespace === null || company === deps.namespace)) namespaces.push(company);
  }
  let tokens = 0;
  for (let i = 0; i < namespaces.length; i += REBUILD_PARALLEL) {
    if (!deps.isLeader()) throw notLeader();
    await Promise.all(
      namespaces.slice(i, i + REBUILD_PARALLEL).map(async (namespace) => {
        const { applied } = await deps.companies.toRedis(namespace, { force: true });
        tokens += applied.records?.tokens.length ?? 0;
      }),
    );
  }
  if (!deps.isLeader()) throw notLeader();
  await deps.state.markLoaded(newGeneration());
  return { companies: defined.size, tokens };
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
