import type { UsageRecord } from '../metering/usage-record.js';
import { chooseCredential } from './lease-choice.js';
import { addToTotals, emptyTotals, groupKey, sameModel, type LogQuery, type UsageQuery, type UsageTotals } from './queries.js';
import type { CompanyRecords, TokenRecord } from './records.js';
import { UsageBuffer } from './usage-buffer.js';
import type { ExportBatch, UsageSource } from './usage-source.js';
import {
  FencedWrite,
  type CallerSlotRequest,
  type CredentialHealth,
  type GatewayState,
  type Lease,
  type LeaseOutcome,
  type LeaseRequest,
  type RevokedToken,
  type SeatWindow,
  type SpendCheck,
  type SpendOutcome,
  type WriteFence,
} from './state.js';

const HEALTHY: CredentialHealth = Object.freeze({ healthy: true, reason: null, windows: Object.freeze([]) });
const STICKY_TTL_MS = 60 * 60 * 1000;

/**
 * Entries with their expiry times. Sweeping walks every entry, and it runs on each acquire, so
 * at a thousand requests in flight it dominated: the walk is skipped while no entry can have
 * expired yet (`earliest` is a lower bound; a renewal only moves an expiry later).
 */
class Expiring extends Map<string, number> {
  private earliest = Infinity;

  override set(id: string, expiresAt: number): this {
    if (expiresAt < this.earliest) this.earliest = expiresAt;
    return super.set(id, expiresAt);
  }

  sweep(now: number): this {
    if (now < this.earliest) return this;
    let next = Infinity;
    for (const [id, expiresAt] of this) {
      if (expiresAt <= now) this.delete(id);
      else if (expiresAt < next) next = expiresAt;
    }
    this.earliest = next;
    return this;
  }
}

export interface MemoryStateOptions {
  readonly now?: () => number;
  /** Global bound of the usage records held, in bytes (GW_USAGE_MEMORY_MB). */
  readonly usageMemoryBytes?: number;
  /** Called for each record given up to stay within the bound (oldest first). */
  readonly onUsageDropped?: (record: UsageRecord) => void;
}

/** All state in this process: the one-machine gateway and the contract suite's reference. */
export class MemoryState implements GatewayState {
  readonly kind = 'memory' as const;
  private readonly companies = new Map<string, CompanyRecords>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly leases = new Map<string, Expiring>();
  private readonly sticky = new Map<string, { name: string; expiresAt: number }>();
  private readonly slots = new Map<string, Expiring>();
  private readonly slotWaiters = new Map<string, Array<() => void>>();
  private readonly health = new Map<string, CredentialHealth>();
  private readonly usage: UsageBuffer;
  private readonly spend = new Map<string, number>();
  private leaseSeq = 0;
  private readonly now: () => number;
  private readonly revoked = new Set<string>();
  private readonly epochs = new Map<string, number>();
  private generationMark: string | null = null;

  constructor(options: MemoryStateOptions | (() => number) = {}) {
    const o = typeof options === 'function' ? { now: options } : options;
    this.now = o.now ?? Date.now;
    this.usage = new UsageBuffer(o.usageMemoryBytes, o.onUsageDropped);
  }

  async findToken(hash: string): Promise<TokenRecord | null> {
    return this.tokens.get(hash) ?? null;
  }

  async getCompany(company: string): Promise<CompanyRecords | null> {
    return this.companies.get(company) ?? null;
  }

  async acquireCallerSlot(request: CallerSlotRequest): Promise<boolean> {
    const key = `${request.company}\u0000${request.tokenHash}`;
    const deadline = this.now() + request.waitMs;
    for (;;) {
      const held = live(this.slots, key, this.now());
      if (held.size < request.limit) {
        held.set(request.requestId, this.now() + request.ttlMs);
        return true;
      }
      const remaining = deadline - this.now();
      if (remaining <= 0) return false;
      // Wake on a release, or at the deadline, or when the earliest slot's TTL runs out.
      const earliest = Math.min(...held.values()) - this.now();
      await this.waitForSlot(key, Math.max(1, Math.min(remaining, earliest)));
    }
  }

  private waitForSlot(key: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.slotWaiters.get(key) ?? [];
      this.slotWaiters.set(key, waiters);
      const timer = setTimeout(done, ms);
      waiters.push(done);
      function done(): void {
        clearTimeout(timer);
        const at = waiters.indexOf(done);
        if (at !== -1) waiters.splice(at, 1);
        resolve();
      }
    });
  }

  async renewCallerSlot(company: string, tokenHash: string, requestId: string, ttlMs: number): Promise<void> {
    const held = this.slots.get(`${company}\u0000${tokenHash}`);
    if (held?.has(requestId)) held.set(requestId, this.now() + ttlMs);
  }

  async releaseCallerSlot(company: string, tokenHash: string, requestId: string): Promise<void> {
    const key = `${company}\u0000${tokenHash}`;
    this.slots.get(key)?.delete(requestId);
    this.slotWaiters.get(key)?.[0]?.();
  }

  async acquireLease(request: LeaseRequest): Promise<LeaseOutcome> {
    const now = this.now();
    const stickyKey = request.session === null ? null : `${request.company}\u0000${request.session}`;
    const stuck = stickyKey === null ? undefined : this.sticky.get(stickyKey);
    const stickyName = stuck && stuck.expiresAt > now ? stuck.name : null;
    const loads = request.candidates.map((credential) => ({
      credential,
      inUse: live(this.leases, leaseKey(request.company, credential.name), now).size,
      health: this.health.get(leaseKey(request.company, credential.name)) ?? HEALTHY,
    }));
    const choice = chooseCredential(loads, stickyName, now);
    if (!choice.ok) return choice;
    const id = `${request.requestId}:${++this.leaseSeq}`;
    live(this.leases, leaseKey(request.company, choice.credential.name), now).set(id, now + request.ttlMs);
    if (stickyKey !== null) this.sticky.set(stickyKey, { name: choice.credential.name, expiresAt: now + STICKY_TTL_MS });
    return { ok: true, lease: { id, company: request.company, credential: choice.credential } };
  }

  async renewLease(lease: Lease, ttlMs: number): Promise<void> {
    const held = this.leases.get(leaseKey(lease.company, lease.credential.name));
    if (held?.has(lease.id)) held.set(lease.id, this.now() + ttlMs);
  }

  async releaseLease(lease: Lease): Promise<void> {
    this.leases.get(leaseKey(lease.company, lease.credential.name))?.delete(lease.id);
  }

  async reserveSpend(company: string, checks: readonly SpendCheck[], amountMicros: number): Promise<SpendOutcome> {
    for (const check of checks) {
      if ((this.spend.get(`${company}\u0000${check.counter}`) ?? 0) + amountMicros > check.limitMicros) return { ok: false, failed: check };
    }
    for (const check of checks) {
      const key = `${company}\u0000${check.counter}`;
      this.spend.set(key, (this.spend.get(key) ?? 0) + amountMicros);
    }
    return { ok: true };
  }

  async adjustSpend(company: string, checks: readonly SpendCheck[], deltaMicros: number): Promise<void> {
    for (const check of checks) {
      const key = `${company}\u0000${check.counter}`;
      this.spend.set(key, (this.spend.get(key) ?? 0) + deltaMicros);
    }
  }

  async spendOf(company: string, counter: string): Promise<number> {
    return this.spend.get(`${company}\u0000${counter}`) ?? 0;
  }

  async credentialHealth(company: string, credential: string): Promise<CredentialHealth> {
    return this.health.get(leaseKey(company, credential)) ?? HEALTHY;
  }

  async markCredentialUnhealthy(company: string, credential: string, reason: string): Promise<void> {
    const key = leaseKey(company, credential);
    const current = this.health.get(key) ?? HEALTHY;
    this.health.set(key, { ...current, healthy: false, reason });
  }

  async markCredentialHealthy(company: string, credential: string): Promise<void> {
    const key = leaseKey(company, credential);
    const current = this.health.get(key);
    if (current) this.health.set(key, { ...current, healthy: true, reason: null });
  }

  async updateSeatWindows(company: string, credential: string, windows: readonly SeatWindow[]): Promise<void> {
    const key = leaseKey(company, credential);
    const current = this.health.get(key) ?? HEALTHY;
    const merged = new Map(current.windows.map((w) => [w.window, w]));
    for (const w of windows) merged.set(w.window, w);
    this.health.set(key, { ...current, windows: [...merged.values()] });
  }

  async recordUsage(record: UsageRecord): Promise<void> {
    if (this.usage.add(record)) this.onRecorded?.();
  }

  /** Called after each new record (the in-process exporter looks at once). */
  onRecorded: (() => void) | null = null;

  async queryLogs(query: LogQuery): Promise<UsageRecord[]> {
    const limit = query.limit ?? 100;
    const out: UsageRecord[] = [];
    for (const record of this.matching(query.company, query.since)) {
      if (query.address !== undefined && record.address !== query.address) continue;
      if (query.model !== undefined && !sameModel(record, query.model)) continue;
      out.push(record);
    }
    out.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
    return out.slice(0, limit);
  }

  /** `since` counts whole days (UTC), as the Redis per-day aggregates do. */
  async queryUsage(query: UsageQuery): Promise<UsageTotals[]> {
    const groups = new Map<string | null, UsageTotals>();
    for (const record of this.matching(query.company, query.since?.slice(0, 10))) {
      const key = groupKey(record, query.groupBy);
      let totals = groups.get(key);
      if (!totals) groups.set(key, (totals = emptyTotals(key)));
      addToTotals(totals, record);
    }
    return [...groups.values()].sort((a, b) => b.cost_usd - a.cost_usd || b.requests - a.requests);
  }

  async usageDropped(company: string | undefined): Promise<number> {
    return this.usage.droppedRecords(company);
  }

  /** Every record held, oldest first. */
  usageRecords(): Iterable<UsageRecord> {
    return this.usage.records();
  }

  /** The records held as a source for the exporter: once stored in PostgreSQL they leave memory. */
  usageSource(): UsageSource {
    return {
      next: async (max: number): Promise<ExportBatch | null> => {
        const { records, through } = this.usage.oldest(max);
        if (records.length === 0) return null;
        return { records, ack: async () => this.usage.removeThrough(through) };
      },
      backlog: async () => this.usage.size(),
      timeZones: async (companies) => {
        const out = new Map<string, string>();
        for (const c of companies) {
          const zone = this.companies.get(c)?.settings.timeZone;
          if (zone !== undefined) out.set(c, zone);
        }
        return out;
      },
    };
  }

  private *matching(company: string | undefined, since: string | undefined): Iterable<UsageRecord> {
    for (const record of this.usage.records()) {
      if (company !== undefined && record.company !== company) continue;
      if (since === undefined || record.time >= since) yield record;
    }
  }

  async replaceCompany(records: CompanyRecords, fence?: WriteFence): Promise<void> {
    this.checkFence(records.company, fence);
    const previous = this.companies.get(records.company);
    if (previous) {
      for (const token of previous.tokens) this.dropToken(token.hash, records.company);
      // A rotated secret gets a fresh start; an unchanged one keeps what the upstream taught us.
      for (const old of previous.credentials) {
        const now = records.credentials.find((c) => c.name === old.name);
        if (!now || now.secret !== old.secret) this.health.delete(leaseKey(records.company, old.name));
      }
    }
    this.companies.set(records.company, records);
    for (const token of records.tokens) {
      // Never take over a hash another company holds, and never revive a revoked one.
      if (this.revoked.has(token.hash)) continue;
      const holder = this.tokens.get(token.hash);
      if (!holder || holder.company === records.company) this.tokens.set(token.hash, token);
    }
  }

  private checkFence(company: string, fence: WriteFence | undefined): void {
    if (!fence) return;
    const current = this.epochs.get(company) ?? 0;
    if (fence.epoch < current) throw new FencedWrite(fence.epoch, current);
    this.epochs.set(company, fence.epoch);
  }

  private dropToken(hash: string, company: string): void {
    if (this.tokens.get(hash)?.company === company) this.tokens.delete(hash);
  }

  async removeCompany(company: string, fence?: WriteFence): Promise<void> {
    this.checkFence(company, fence);
    const previous = this.companies.get(company);
    if (previous) {
      for (const token of previous.tokens) this.dropToken(token.hash, company);
      for (const credential of previous.credentials) this.health.delete(leaseKey(company, credential.name));
    }
    this.companies.delete(company);
  }

  async revokeTokens(revoked: readonly RevokedToken[]): Promise<void> {
    for (const r of revoked) {
      this.revoked.add(r.hash);
      this.tokens.delete(r.hash);
    }
  }

  async loaded(): Promise<boolean> {
    // One process holds its state and its writer: it cannot lose one without the other.
    return true;
  }

  async generation(): Promise<string | null> {
    return this.generationMark;
  }

  async markLoaded(generation: string): Promise<void> {
    this.generationMark = generation;
  }

  async listCompanies(): Promise<string[]> {
    return [...this.companies.keys()];
  }

  async close(): Promise<void> {
    for (const waiters of this.slotWaiters.values()) for (const wake of [...waiters]) wake();
  }
}

function leaseKey(company: string, credential: string): string {
  return `${company}\u0000${credential}`;
}

/** The entries of `key` whose TTL has not run out (expired ones are dropped on the way). */
function live(map: Map<string, Expiring>, key: string, now: number): Expiring {
  let entries = map.get(key);
  if (!entries) {
    map.set(key, (entries = new Expiring()));
    return entries;
  }
  return entries.sweep(now);
}
