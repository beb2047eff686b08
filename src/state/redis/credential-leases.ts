import type { CredentialLeases, Lease, LeaseOutcome, LeaseRequest } from '../state.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import type { ScriptRunners } from './script-runners.js';

const STICKY_TTL_MS = 60 * 60 * 1000;

/** One script chooses among the candidates (health, seat windows, load, stickiness) and leases atomically. */
export class RedisCredentialLeases implements CredentialLeases {
  constructor(
    private readonly redis: RedisClient,
    private readonly run: ScriptRunners,
    private readonly now: () => number,
  ) {}

  async acquireLease(request: LeaseRequest): Promise<LeaseOutcome> {
    const { company } = request;
    const leaseId = `${request.requestId}:${Math.random().toString(36).slice(2, 8)}`;
    const keyArgs: string[] = [keys.sticky(company, request.session ?? '-')];
    const argv: Array<string | number> = [this.now(), request.ttlMs, leaseId, request.session === null ? 0 : STICKY_TTL_MS, request.candidates.length];
    for (const c of request.candidates) {
      keyArgs.push(keys.leases(company, c.name), keys.health(company, c.name));
      argv.push(c.name, c.maxConcurrency, c.priority);
    }
    const result = (await this.run.lease(keyArgs.length, ...keyArgs, ...argv)) as string[];
    if (result[0] === 'ok') {
      const credential = request.candidates.find((c) => c.name === result[1]);
      if (!credential) throw new Error('lease script chose an unknown credential');
      return { ok: true, lease: { id: leaseId, company, credential } };
    }
    if (result[0] === 'rejected') return { ok: false, reason: 'rejected', credentials: result.slice(1) };
    if (result[0] === 'exhausted') {
      const reset = Number(result[1]);
      return { ok: false, reason: 'exhausted', earliestReset: reset >= Number.MAX_SAFE_INTEGER ? null : reset };
    }
    return { ok: false, reason: 'busy' };
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<void> {
    await this.run.renew(1, keys.leases(lease.company, lease.credential.name), this.now(), ttlMs, lease.id);
  }

  async releaseLease(lease: Lease): Promise<void> {
    await this.redis.zrem(keys.leases(lease.company, lease.credential.name), lease.id);
  }
}
