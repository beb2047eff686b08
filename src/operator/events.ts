import type { Logger } from '../observability/logger.js';
import type { ResourceCondition } from '../reconcile/conditions.js';
import { COMPONENT, readyCondition, type ClusterResource } from './kube-objects.js';
import type { EventInput, KubeWriter } from './kube-writer.js';
import type { OperatorMetrics } from './operator-metrics.js';

export interface EventDecision {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** The part of a Ready condition that makes an event worth telling: its status and reason. */
export interface Announced {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
}

/**
 * Which Kubernetes Events a change of a resource's Ready condition deserves.
 * Events mark transitions an owner should notice (`kubectl describe`,
 * `kubectl get events`), so a condition that stays as it was says nothing.
 * A token still waiting for its generated Secret is not news.
 */
export function conditionEvents(previous: Announced | undefined, next: ResourceCondition): EventDecision[] {
  const status = next.ready ? 'True' : 'False';
  if (previous && previous.status === status && previous.reason === next.reason) return [];
  switch (next.kind) {
    case 'GatewayToken':
      if (next.reason === 'Revoked') return [{ type: 'Normal', reason: 'TokenRevoked', message: `token ${next.address ?? next.name} is revoked: its next request fails with 401` }];
      if (!next.ready && next.reason !== 'TokenPending') return [{ type: 'Warning', reason: 'TokenNotReady', message: `${next.reason}: ${next.message}` }];
      return [];
    case 'ProviderCredential':
      if (!next.ready) return [{ type: 'Warning', reason: 'CredentialNotReady', message: `${next.reason}: ${next.message}; the credential is out of the pool` }];
      if (previous?.status === 'False') return [{ type: 'Normal', reason: 'CredentialReady', message: next.message }];
      return [];
    case 'GatewaySettings':
      if (next.reason === 'SettingsConflict') return [{ type: 'Warning', reason: 'SettingsConflict', message: next.message }];
      if (!next.ready) return [{ type: 'Warning', reason: 'SettingsInvalid', message: next.message }];
      if (next.ready && previous?.status === 'False') return [{ type: 'Normal', reason: 'SettingsApplied', message: next.message }];
      return [];
  }
}

/** A credential's health as the data planes learned it changed (a provider 401/403, or its Secret was fixed). */
export function healthEvent(health: { healthy: boolean; reason: string | null }): EventDecision {
  return health.healthy
    ? { type: 'Normal', reason: 'CredentialHealthy', message: 'the credential is back in the pool (its Secret changed)' }
    : { type: 'Warning', reason: 'CredentialUnhealthy', message: `${health.reason ?? 'the provider rejected this credential'}; it is out of the pool until its Secret changes` };
}

export function tokenGeneratedEvent(secretName: string, key: string): EventDecision {
  return { type: 'Normal', reason: 'TokenGenerated', message: `generated a token and wrote it once to Secret ${secretName} (key "${key}"); only its hash is stored` };
}

/**
 * Emits Events and remembers, per resource, the last condition it announced,
 * so a reconcile that runs before the informer has seen our own status write
 * does not announce the same transition twice. Emission is best effort: a
 * failed Event is logged, never retried, and never fails a reconcile.
 */
export class EventRecorder {
  private readonly announced = new Map<string, Announced>();

  constructor(
    private readonly writer: KubeWriter,
    private readonly instance: string,
    private readonly logger: Logger,
    private readonly metrics: OperatorMetrics,
  ) {}

  previousOf(obj: ClusterResource): Announced | undefined {
    const uid = obj.metadata.uid;
    const remembered = uid ? this.announced.get(uid) : undefined;
    if (remembered) return remembered;
    const ready = readyCondition(obj);
    return ready ? { status: ready.status, reason: ready.reason ?? '' } : undefined;
  }

  async observe(obj: ClusterResource, next: ResourceCondition): Promise<void> {
    const decisions = conditionEvents(this.previousOf(obj), next);
    if (obj.metadata.uid) this.announced.set(obj.metadata.uid, { status: next.ready ? 'True' : 'False', reason: next.reason });
    for (const decision of decisions) await this.emit(obj, decision);
  }

  async emit(obj: ClusterResource, decision: EventDecision): Promise<void> {
    const involved: EventInput['involved'] = {
      kind: obj.kind,
      namespace: obj.metadata.namespace ?? 'default',
      name: obj.metadata.name,
      ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
      ...(obj.metadata.resourceVersion ? { resourceVersion: obj.metadata.resourceVersion } : {}),
    };
    this.metrics.events.inc({ reason: decision.reason });
    this.logger.info({ kind: obj.kind, namespace: involved.namespace, name: involved.name, reason: decision.reason, detail: decision.message }, 'event');
    try {
      await this.writer.createEvent({ involved, ...decision }, { name: COMPONENT, instance: this.instance });
    } catch (error) {
      this.logger.warn({ reason: decision.reason, detail: error instanceof Error ? error.message : String(error) }, 'could not record an Event');
    }
  }

  forget(uid: string | undefined): void {
    if (uid) this.announced.delete(uid);
  }
}
