import { V1MicroTime, type V1Lease } from '@kubernetes/client-node';
import { apiStatus, type KubeClients } from './kube-client.js';
import { LeaseConflict, type LeaseRecord, type LeaseStore, type StoredLease } from './leader-election.js';

function epochMs(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  const t = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(t) ? null : t;
}

function fromLease(lease: V1Lease): StoredLease {
  const spec = lease.spec ?? {};
  return {
    record: {
      holderIdentity: spec.holderIdentity || null,
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 15,
      acquireTime: epochMs(spec.acquireTime),
      renewTime: epochMs(spec.renewTime),
      leaseTransitions: spec.leaseTransitions ?? 0,
    },
    version: lease.metadata?.resourceVersion ?? '',
  };
}

function toSpec(record: LeaseRecord): NonNullable<V1Lease['spec']> {
  return {
    ...(record.holderIdentity ? { holderIdentity: record.holderIdentity } : {}),
    leaseDurationSeconds: record.leaseDurationSeconds,
    // MicroTime wants six fractional digits; V1MicroTime serialises that way.
    ...(record.acquireTime !== null ? { acquireTime: new V1MicroTime(record.acquireTime) } : {}),
    ...(record.renewTime !== null ? { renewTime: new V1MicroTime(record.renewTime) } : {}),
    leaseTransitions: record.leaseTransitions,
  };
}

/** The Lease object the replicas compete for, through coordination.k8s.io/v1. */
export function kubeLeaseStore(clients: KubeClients, namespace: string, name: string): LeaseStore {
  const api = clients.coordination;
  const conflict = (error: unknown): never => {
    if (apiStatus(error) === 409) throw new LeaseConflict(`Lease ${namespace}/${name} changed meanwhile`);
    throw error;
  };
  return {
    async get() {
      try {
        return fromLease(await api.readNamespacedLease({ namespace, name }));
      } catch (error) {
        if (apiStatus(error) === 404) return null;
        throw error;
      }
    },
    async create(record) {
      try {
        return fromLease(await api.createNamespacedLease({ namespace, body: { metadata: { name, namespace }, spec: toSpec(record) } }));
      } catch (error) {
        return conflict(error);
      }
    },
    async update(record, version) {
      try {
        return fromLease(await api.replaceNamespacedLease({ namespace, name, body: { metadata: { name, namespace, resourceVersion: version }, spec: toSpec(record) } }));
      } catch (error) {
        return conflict(error);
      }
    },
  };
}
