import { chooseCredential } from '../lease-choice.js';
import type { CredentialLeases, Lease, LeaseOutcome, LeaseRequest } from '../state.js';
import { live, type Expiring } from './expiring.js';
import { credentialKey, HEALTHY, type MemoryStore } from './store.js';

const STICKY_TTL_MS = 60 * 60 * 1000;

export class MemoryCredentialLeases implements CredentialLeases {
  private readonly leases = new Map<string, Expiring>();
  private readonly sticky = new Map<string, { name: string; expiresAt: number }>();
  private leaseSeq = 0;

  constructor(private readonly store: MemoryStore) {}

  async acquireLease(request: LeaseRequest): Promise<LeaseOutcome> {
    const now = this.store.now();
    const stickyKey = request.session === null ? null : `${request.company}\u0000${request.session}`;
    const stuck = stickyKey === null ? undefined : this.sticky.get(stickyKey);
    const stickyName = stuck && stuck.expiresAt > now ? stuck.name : null;
    const loads = request.candidates.map((credential) => ({
      credential,
      inUse: live(this.leases, credentialKey(request.company, credential.name), now).size,
      health: this.store.health.get(credentialKey(request.company, credential.name)) ?? HEALTHY,
    }));
    const choice = chooseCredential(loads, stickyName, now);
    if (!choice.ok) return choice;
    const id = `${request.requestId}:${++this.leaseSeq}`;
    live(this.leases, credentialKey(request.company, choice.credential.name), now).set(id, now + request.ttlMs);
    if (stickyKey !== null) this.sticky.set(stickyKey, { name: choice.credential.name, expiresAt: now + STICKY_TTL_MS });
    return { ok: true, lease: { id, company: request.company, credential: choice.credential } };
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<void> {
    // Written again if missing, as the Redis script does (a failover there can lose a live request's lease).
    live(this.leases, credentialKey(lease.company, lease.credential.name), this.store.now()).set(lease.id, this.store.now() + ttlMs);
  }

  async releaseLease(lease: Lease): Promise<void> {
    this.leases.get(credentialKey(lease.company, lease.credential.name))?.delete(lease.id);
  }
}
