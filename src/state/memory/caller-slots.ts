import type { CallerSlotRequest, CallerSlots } from '../state.js';
import { live, type Expiring } from './expiring.js';

/** Slots per token; a waiter is woken by a release rather than polling. */
export class MemoryCallerSlots implements CallerSlots {
  private readonly slots = new Map<string, Expiring>();
  private readonly waiters = new Map<string, Array<() => void>>();

  constructor(private readonly now: () => number) {}

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
      const waiters = this.waiters.get(key) ?? [];
      this.waiters.set(key, waiters);
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
    // Written again if missing, as the Redis script does (a failover there can lose a live request's slot).
    live(this.slots, `${company}\u0000${tokenHash}`, this.now()).set(requestId, this.now() + ttlMs);
  }

  async releaseCallerSlot(company: string, tokenHash: string, requestId: string): Promise<void> {
    const key = `${company}\u0000${tokenHash}`;
    this.slots.get(key)?.delete(requestId);
    this.waiters.get(key)?.[0]?.();
  }

  /** Wakes every waiter (each then finds no slot, or its deadline, and returns). */
  wakeAll(): void {
    for (const waiters of this.waiters.values()) for (const wake of [...waiters]) wake();
  }
}
