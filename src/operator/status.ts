import type { ResourceCondition } from '../reconcile/conditions.js';
import type { ClusterResource, Condition, ResourceStatus } from './kube-objects.js';
import type { KubeWriter } from './kube-writer.js';

/** Status fields the operator owns; any other field (written by someone else) is left as it is. */
const OWNED_FIELDS = ['observedGeneration', 'conditions', 'address', 'secretName', 'healthy'] as const;

export interface StatusExtras {
  readonly address?: string;
  readonly secretName?: string;
  /** ProviderCredential: what the data planes learned from the provider (a 401/403 marks it unhealthy). */
  readonly health?: { readonly healthy: boolean; readonly reason: string | null };
}

/**
 * The status a resource should carry for its reconciled condition, given
 * the status it has now. The transition time moves only when the Ready
 * status itself changes, so a new message alone is not a new transition.
 */
export function desiredStatus(obj: ClusterResource, current: ResourceStatus | undefined, condition: ResourceCondition, extras: StatusExtras, now: Date): ResourceStatus {
  const generation = obj.metadata.generation ?? 0;
  const previous = current?.conditions?.find((c) => c.type === 'Ready');
  const status: Condition['status'] = condition.ready ? 'True' : 'False';
  const ready: Condition = {
    type: 'Ready',
    status,
    reason: condition.reason,
    message: condition.message,
    lastTransitionTime: previous && previous.status === status && previous.lastTransitionTime ? previous.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    observedGeneration: generation,
  };
  const out: ResourceStatus = { observedGeneration: generation, conditions: [ready] };
  if (extras.address !== undefined) out.address = extras.address;
  if (extras.secretName !== undefined) out.secretName = extras.secretName;
  if (extras.health !== undefined) {
    const healthy: Condition['status'] = extras.health.healthy ? 'True' : 'False';
    const before = current?.conditions?.find((c) => c.type === 'Healthy');
    out.healthy = extras.health.healthy;
    out.conditions?.push({
      type: 'Healthy',
      status: healthy,
      reason: extras.health.healthy ? 'Serving' : 'UpstreamRejected',
      message: extras.health.healthy
        ? 'the provider accepts this credential'
        : `${extras.health.reason ?? 'the provider rejected it'}; it is out of the pool until the gateway's recovery probe finds it accepted again or its Secret changes`,
      lastTransitionTime: before && before.status === healthy && before.lastTransitionTime ? before.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      observedGeneration: generation,
    });
  }
  return out;
}

function sameCondition(a: Condition | undefined, b: Condition | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.type === b.type &&
    a.status === b.status &&
    (a.reason ?? '') === (b.reason ?? '') &&
    (a.message ?? '') === (b.message ?? '') &&
    a.observedGeneration === b.observedGeneration &&
    a.lastTransitionTime === b.lastTransitionTime
  );
}

/**
 * The JSON merge patch (`{status: …}`) that turns `current` into `desired`
 * for the fields the operator owns, or null when nothing would change.
 * Fields the operator no longer sets are removed with null.
 */
export function statusPatch(current: ResourceStatus | undefined, desired: ResourceStatus): { status: Record<string, unknown> } | null {
  const now = current ?? {};
  const patch: Record<string, unknown> = {};
  for (const field of OWNED_FIELDS) {
    const want = desired[field];
    const have = now[field];
    if (field === 'conditions') {
      const wantList = (want as Condition[] | undefined) ?? [];
      const haveList = (have as Condition[] | undefined) ?? [];
      const same = wantList.length === haveList.length && wantList.every((c, i) => sameCondition(c, haveList[i]));
      if (!same) patch.conditions = wantList;
      continue;
    }
    if (want === undefined) {
      if (have !== undefined) patch[field] = null;
    } else if (want !== have) {
      patch[field] = want;
    }
  }
  return Object.keys(patch).length === 0 ? null : { status: patch };
}

/** The operator's fields of a status, in a fixed order, for comparing two statuses. */
function ownedKey(status: ResourceStatus | undefined): string {
  return JSON.stringify([
    status?.observedGeneration ?? null,
    (status?.conditions ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '', c.observedGeneration ?? null, c.lastTransitionTime ?? null]),
    status?.address ?? null,
    status?.secretName ?? null,
    status?.healthy ?? null,
  ]);
}

/**
 * Status has one exit: every status write of the operator goes through
 * `sync`, which patches the status subresource only when something changed.
 *
 * The informer cache shows our own patch only a moment later, and a
 * reconcile may run in between. So the last patch per resource is kept
 * until the cache shows it: while the cache still shows the status from
 * before that patch, the patch is what counts as current. (If the cache
 * shows anything else, someone else wrote the status, and the cache wins.)
 */
export class StatusSync {
  private readonly inFlight = new Map<string, { before: string; after: ResourceStatus }>();

  constructor(private readonly writer: KubeWriter) {}

  currentOf(obj: ClusterResource): ResourceStatus | undefined {
    const uid = obj.metadata.uid;
    const written = uid ? this.inFlight.get(uid) : undefined;
    if (!written || !uid) return obj.status;
    const seen = ownedKey(obj.status);
    if (seen === written.before) return { ...(obj.status ?? {}), ...written.after };
    this.inFlight.delete(uid);
    return obj.status;
  }

  /** Returns whether it patched. */
  async sync(obj: ClusterResource, condition: ResourceCondition, extras: StatusExtras, now: Date = new Date()): Promise<boolean> {
    const current = this.currentOf(obj);
    const desired = desiredStatus(obj, current, condition, extras, now);
    const patch = statusPatch(current, desired);
    if (patch === null) return false;
    await this.writer.patchStatus(obj.kind, obj.metadata.namespace ?? 'default', obj.metadata.name, patch);
    if (obj.metadata.uid) this.inFlight.set(obj.metadata.uid, { before: ownedKey(obj.status), after: desired });
    return true;
  }

  forget(uid: string | undefined): void {
    if (uid) this.inFlight.delete(uid);
  }

  forgetAll(): void {
    this.inFlight.clear();
  }
}
