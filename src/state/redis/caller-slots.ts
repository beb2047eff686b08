import type { CallerSlotRequest, CallerSlots } from '../state.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';
import type { ScriptRunners } from './script-runners.js';

const SLOT_POLL_MS = 25;

/** A sorted set per token of the requests holding a slot, scored by expiry. */
export class RedisCallerSlots implements CallerSlots {
  constructor(
    private readonly redis: RedisClient,
    private readonly run: ScriptRunners,
    private readonly now: () => number,
  ) {}

  async acquireCallerSlot(request: CallerSlotRequest): Promise<boolean> {
    const key = keys.slots(request.company, request.tokenHash);
    const deadline = this.now() + request.waitMs;
    for (;;) {
      const got = await this.run.slot(1, key, this.now(), request.ttlMs, request.limit, request.requestId);
      if (got === 1) return true;
      const remaining = deadline - this.now();
      if (remaining <= 0) return false;
      await new Promise((r) => setTimeout(r, Math.min(SLOT_POLL_MS, remaining)));
    }
  }

  async renewCallerSlot(company: string, tokenHash: string, requestId: string, ttlMs: number): Promise<void> {
    await this.run.renew(1, keys.slots(company, tokenHash), this.now(), ttlMs, requestId);
  }

  async releaseCallerSlot(company: string, tokenHash: string, requestId: string): Promise<void> {
    await this.redis.zrem(keys.slots(company, tokenHash), requestId);
  }
}
