import { Cluster } from 'ioredis';
import type { RedisClient } from './connect.js';
import { keys } from './keys.js';

/** How often each process looks for a new primary; with the Cluster client's slot refresh (connect.ts) a promotion is seen within 1 s. */
export const FAILOVER_CHECK_MS = 200;

export interface FailoverSeen {
  /** What changed, for the log: the primaries before and after. */
  readonly before: string;
  readonly after: string;
  /** The writer's generation mark last read before the change (null: none seen yet). */
  readonly generationBefore: string | null;
}

/**
 * Notices that the Redis serving this process is no longer the one it was:
 * for Cluster, the primary of some slot changed (the client's own slot map,
 * refreshed every CLUSTER_SLOTS_REFRESH_MS); for one instance or Sentinel,
 * the primary's run_id changed (a promotion, or a restart that may have lost
 * data: both call for the same repair). Checks never overlap; a failed
 * check (Redis away) changes nothing, the next answer decides.
 */
export class FailoverWatch {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private signature: string | null = null;
  private generation: string | null = null;
  private suspected = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly onFailover: (seen: FailoverSeen) => void,
    private readonly intervalMs = FAILOVER_CHECK_MS,
    /** Called at once when a reconnect may have reached another primary, before any command is sent there; `onCleared` or `onFailover` follows. */
    private readonly suspect: { readonly onSuspect: () => void; readonly onCleared: () => void } | null = null,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
    if (this.redis instanceof Cluster) {
      // The client swaps its slot map and emits 'refresh' in one tick: comparing here runs before any command goes to a promoted node.
      this.redis.on('refresh', this.onRefresh);
    } else {
      this.redis.on('ready', this.onReady);
    }
  }

  private readonly onRefresh = (): void => {
    void this.check();
  };

  private readonly onReady = (): void => {
    if (this.signature === null) return;
    // A reconnect (Sentinel switching primaries, or a restart): nothing is read until the run_id says whose it is.
    this.suspected = true;
    this.suspect?.onSuspect();
    void this.check();
  };

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.redis.off('refresh', this.onRefresh);
    this.redis.off('ready', this.onReady);
  }

  /** The generation mark as last read while the primary was unchanged. */
  lastGeneration(): string | null {
    return this.generation;
  }

  async check(): Promise<void> {
    // Cluster: compared synchronously, in the tick that changed the slot map, whatever else is running.
    if (this.redis instanceof Cluster) {
      const current = this.clusterPrimaries(this.redis);
      if (current === null || this.changed(current)) return;
    }
    if (this.busy) return;
    this.busy = true;
    try {
      if (!(this.redis instanceof Cluster)) {
        const current = await this.runId();
        if (current === null || this.changed(current)) return;
      }
      this.generation = await this.redis.get(keys.generation());
    } catch {
      // Redis away: the reconnect path handles it; the next successful check compares again.
    } finally {
      this.busy = false;
    }
  }

  /** Compares with the primaries seen last; on a change, reports it (true). */
  private changed(current: string): boolean {
    const before = this.signature;
    this.signature = current;
    const failover = before !== null && before !== current;
    if (failover) this.onFailover({ before, after: current, generationBefore: this.generation });
    if (this.suspected) {
      // The reconnect's suspicion ends with the first comparison made after it (a failover keeps its own gate).
      this.suspected = false;
      this.suspect?.onCleared();
    }
    return failover;
  }

  private clusterPrimaries(cluster: Cluster): string | null {
    const masters: string[] = [];
    let previous: string | undefined;
    const slots = cluster.slots;
    // A map being refreshed may be partial: compare only complete ones.
    if (slots.length < 16384) return null;
    for (let slot = 0; slot < 16384; slot++) {
      const master = slots[slot]?.[0];
      if (master === undefined) return null;
      if (master !== previous) masters.push(master);
      previous = master;
    }
    return masters.join(',');
  }

  private async runId(): Promise<string | null> {
    if (this.redis.status !== 'ready') return null;
    const replication = String(await this.redis.info('replication'));
    if (!replication.includes('role:master')) {
      // Still on a node that was demoted while we were connected (paused, replaced, resumed): its reads are a replica's.
      this.suspected = true;
      this.suspect?.onSuspect();
      this.redis.disconnect(true);
      return null;
    }
    const info = String(await this.redis.info('server'));
    return /run_id:(\w+)/.exec(info)?.[1] ?? null;
  }
}
