import type { ResourceCondition } from '../reconcile/conditions.js';
import { generatedTokenSecretName } from '../reconcile/desired-records.js';
import type { CompanyRecords } from '../state/records.js';
import type { CredentialHealthStore } from '../state/state.js';
import { healthEvent, type EventRecorder } from './events.js';
import { addFinalizer, needsFinalizer } from './finalizers.js';
import { isDeleting, type ClusterResource } from './kube-objects.js';
import type { KubeWriter } from './kube-writer.js';
import { eachLimited, NotLeader } from './not-leader.js';
import type { OperatorMetrics } from './operator-metrics.js';
import { snapshotOf, type ClusterView } from './snapshot.js';
import { StatusSync } from './status.js';

/** API writes of one status pass at a time (finalizers, status): with two passes running, at most 16 beside the creates of a burst. */
const STATUS_PARALLEL = 8;

/** A condition computed by a reconcile, waiting to be written into status by StatusPass.run. */
export interface PendingReport {
  readonly kind: ClusterResource['kind'];
  readonly name: string;
  readonly uid: string | undefined;
  readonly generation: number;
  readonly condition: ResourceCondition;
}

export interface PendingReports {
  readonly entries: readonly PendingReport[];
  readonly company: CompanyRecords | null;
}

export interface StatusPassDeps {
  readonly view: ClusterView;
  readonly writer: KubeWriter;
  readonly state: Pick<CredentialHealthStore, 'credentialHealth'>;
  readonly events: EventRecorder;
  readonly metrics: OperatorMetrics;
  readonly isLeader: () => boolean;
}

/**
 * The second pass of a namespace's reconcile (src/operator/reconcile-namespace.ts),
 * the API work, bounded and debounced: the finalizer on every live resource
 * that lacks it, then status and Events for what the last reconcile computed.
 * They report what is already true in Redis.
 */
export class StatusPass {
  private readonly status: StatusSync;
  /** Per namespace, the conditions its last reconcile computed, until `run` has written them. */
  private readonly reports = new Map<string, PendingReports>();
  /**
   * Per resource, the version our finalizer patch was made against, while the cache still shows that
   * version: not patched twice. Once the cache shows any other version, the cache decides (a finalizer
   * someone removed after our patch is added again, whether or not this replica ever saw it there).
   */
  private readonly finalizerSent = new Map<string, string | undefined>();

  constructor(private readonly deps: StatusPassDeps) {
    this.status = new StatusSync(deps.writer);
  }

  /** What a reconcile of `namespace` computed, for the next pass to write. */
  pending(namespace: string, reports: PendingReports): void {
    this.reports.set(namespace, reports);
  }

  /** A resource whose finalizer was released: nothing about it is remembered. */
  forget(uid: string | undefined): void {
    this.deps.events.forget(uid);
    this.status.forget(uid);
  }

  /** A new term as leader: another replica may have written since. */
  forgetAll(): void {
    this.reports.clear();
    this.finalizerSent.clear();
    this.status.forgetAll();
  }

  /**
   * One namespace's pass: finalizers on live resources, then status and
   * Events for what the last reconcile computed. A resource
   * that changed since (a new generation) is left to the reconcile its change
   * brings; our own patches change no generation, so they bring none.
   */
  async run(namespace: string): Promise<'ok' | 'skipped'> {
    if (!this.deps.isLeader()) return 'skipped';
    // Taken together: the cache is at least as new as the reconcile that computed these reports. One
    // computed later (while the patches below run) may name objects this snapshot lacks: it stays for the next pass.
    const pending = this.reports.get(namespace);
    const snapshot = snapshotOf(this.deps.view, namespace);
    const all: ClusterResource[] = [...snapshot.settings, ...snapshot.tokens, ...snapshot.credentials];
    const sentAgainst = (obj: ClusterResource): boolean =>
      obj.metadata.uid !== undefined && this.finalizerSent.has(obj.metadata.uid) && this.finalizerSent.get(obj.metadata.uid) === obj.metadata.resourceVersion;
    for (const obj of all) if (obj.metadata.uid && !sentAgainst(obj)) this.finalizerSent.delete(obj.metadata.uid);
    const unguarded = all.filter((obj) => needsFinalizer(obj) && !sentAgainst(obj));
    await eachLimited(unguarded, STATUS_PARALLEL, async (obj) => {
      if (!this.deps.isLeader()) throw new NotLeader('lost the leader Lease during a reconcile');
      await addFinalizer(this.deps.writer, obj);
      if (obj.metadata.uid) this.finalizerSent.set(obj.metadata.uid, obj.metadata.resourceVersion);
    });

    if (!pending) return 'ok';
    const byKey = new Map(all.map((o) => [`${o.kind}/${o.metadata.name}`, o]));
    await eachLimited(pending.entries, STATUS_PARALLEL, async (entry) => {
      const obj = byKey.get(`${entry.kind}/${entry.name}`);
      if (!obj || isDeleting(obj) || obj.metadata.uid !== entry.uid || (obj.metadata.generation ?? 0) !== entry.generation) return;
      await this.report(obj, entry.condition, pending.company);
    });
    if (this.reports.get(namespace) === pending) this.reports.delete(namespace);
    return 'ok';
  }

  private async report(obj: ClusterResource, condition: ResourceCondition, company: CompanyRecords | null): Promise<void> {
    const extras: { address?: string; secretName?: string; health?: { healthy: boolean; reason: string | null } } = {};
    if (obj.kind === 'ProviderCredential' && condition.ready) {
      // Health is learned by the data planes; the periodic resync brings it into status.
      const health = await this.deps.state.credentialHealth(obj.metadata.namespace ?? 'default', obj.metadata.name);
      extras.health = { healthy: health.healthy, reason: health.reason };
    }
    if (obj.kind === 'GatewayToken') {
      const domain = company?.settings.tokenDomain ?? obj.metadata.namespace ?? 'default';
      extras.address = condition.address ?? `${obj.metadata.name}@${domain}`;
      if (!obj.spec.tokenHash) extras.secretName = generatedTokenSecretName(obj.metadata.name);
    }
    if (!this.deps.isLeader()) throw new NotLeader('lost the leader Lease during a reconcile');
    await this.deps.events.observe(obj, condition);
    const before = this.status.currentOf(obj)?.healthy;
    if (await this.status.sync(obj, condition, extras)) this.deps.metrics.statusPatches.inc({ kind: obj.kind });
    if (extras.health && extras.health.healthy !== (before ?? true)) await this.deps.events.emit(obj, healthEvent(extras.health));
  }
}
