import type { CredentialHealth, CredentialHealthStore, SeatWindow } from '../state.js';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';

/**
 * One hash per credential: `unhealthy` (the reason) while its key is
 * refused, and `w:<window>:*` fields for each seat window. The lease script
 * reads the same hash.
 */
export class RedisCredentialHealth implements CredentialHealthStore {
  constructor(private readonly redis: RedisClient) {}

  async credentialHealth(company: string, credential: string): Promise<CredentialHealth> {
    const h = await this.redis.hgetall(keys.health(company, credential));
    const windows: SeatWindow[] = [];
    for (const w of ['5h', '7d']) {
      if (h[`w:${w}:exhausted`] === undefined) continue;
      const reset = h[`w:${w}:reset`];
      const util = h[`w:${w}:utilization`];
      windows.push({ window: w, exhausted: h[`w:${w}:exhausted`] === '1', resetAt: reset ? Number(reset) : null, utilization: util ? Number(util) : null });
    }
    return { healthy: h.unhealthy === undefined, reason: h.unhealthy ?? null, windows };
  }

  async markCredentialUnhealthy(company: string, credential: string, reason: string): Promise<void> {
    await this.redis.hset(keys.health(company, credential), 'unhealthy', reason);
  }

  async markCredentialHealthy(company: string, credential: string): Promise<void> {
    // Only the field goes: the hash keeps the seat windows, and its shape stays what the operator reads.
    await this.redis.hdel(keys.health(company, credential), 'unhealthy');
  }

  async updateSeatWindows(company: string, credential: string, windows: readonly SeatWindow[]): Promise<void> {
    const fields: Record<string, string> = {};
    for (const w of windows) {
      fields[`w:${w.window}:exhausted`] = w.exhausted ? '1' : '0';
      fields[`w:${w.window}:reset`] = w.resetAt === null ? '' : String(w.resetAt);
      fields[`w:${w.window}:utilization`] = w.utilization === null ? '' : String(w.utilization);
    }
    if (Object.keys(fields).length > 0) await this.redis.hset(keys.health(company, credential), fields);
  }
}
