import type { Logger } from '../observability/logger.js';
import { desiredState } from '../reconcile/desired-records.js';
import { newGeneration } from '../runtime/generation-watch.js';
import type { CompanyRecords, CompanySettings } from '../state/records.js';
import type { CompanyWriter } from '../state/state.js';
import { namespaceOf } from './kube-objects.js';
import type { RevocationLedger } from './revocation-ledger.js';
import { resourceSetOf, snapshotOf } from './snapshot.js';
import type { OperatorMetrics } from './operator-metrics.js';
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
  readonly state: CompanyWriter;
  readonly ledger: RevocationLedger;
  readonly epoch: () => number;
  readonly isLeader: () => boolean;
  /** The one namespace this operator manages, or null for all. */
  readonly namespace: string | null;
  /** Settings last written per company (Redis lost its own copy), kept when a GatewaySettings is invalid. */
  readonly lastValid?: (company: string) => CompanySettings | undefined;
  /** Before a company's records are replaced or removed: revokes the records whose token vanished (NamespaceReconciler). */
  readonly beforeWrite: (company: string, desired: CompanyRecords | null) => Promise<void>;
}

const REBUILD_PARALLEL = 8;

/**
 * Rewrites Redis from the caches in one go, without the queue: every
 * revocation tombstone, every company's records (fenced with this term's
 * epoch, companies written side by side), the companies no longer defined
 * removed, and last the generation mark that tells the data planes the
 * picture is complete again. Used when Redis lost its data (and when this
 * replica becomes the leader); the queued resync that follows does the
 * rest (finalizers, status).
 */
export async function rebuildRedis(deps: RebuildDeps): Promise<{ companies: number; tokens: number }> {
  const notLeader = (): Error => new Error('lost the leader Lease during a rebuild');
  if (!deps.isLeader()) throw notLeader();
  await deps.state.revokeTokens(deps.ledger.all());
  const namespaces = [...namespacesWithResources(deps.view)];
  const fence = { epoch: deps.epoch() };
  let tokens = 0;
  for (let i = 0; i < namespaces.length; i += REBUILD_PARALLEL) {
    if (!deps.isLeader()) throw notLeader();
    await Promise.all(
      namespaces.slice(i, i + REBUILD_PARALLEL).map(async (namespace) => {
        const desired = desiredState(resourceSetOf(snapshotOf(deps.view, namespace)), { revokedHashes: deps.ledger.hashes(), lastValidSettings: (c) => deps.lastValid?.(c) });
        const company = desired.companies.find((c) => c.company === namespace);
        await deps.beforeWrite(namespace, company ?? null);
        if (company) {
          tokens += company.tokens.length;
          await deps.state.replaceCompany(company, fence);
        }
      }),
    );
  }
  const defined = new Set(namespaces);
  for (const company of await deps.state.listCompanies()) {
    if (defined.has(company) || (deps.namespace !== null && company !== deps.namespace)) continue;
    await deps.beforeWrite(company, null);
    await deps.state.removeCompany(company, fence);
  }
  if (!deps.isLeader()) throw notLeader();
  await deps.state.markLoaded(newGeneration());
  return { companies: namespaces.length, tokens };
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
