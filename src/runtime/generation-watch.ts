import { randomUUID } from 'node:crypto';
import type { TokenDirectory } from '../state/state.js';

/** A new mark for a complete picture of the state. */
export function newGeneration(): string {
  return `${new Date().toISOString()}/${randomUUID()}`;
}

/**
 * Watches the writer's generation mark in the state. The mark is written
 * after a complete write; when it is gone (a flushed or replaced Redis),
 * every record may be gone with it, so the writer rebuilds at once instead
 * of waiting for its periodic resync. Checks never overlap; a failed check
 * (state away) is not a loss, the reconnect path handles that.
 */
export class GenerationWatch {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(
    private readonly state: Pick<TokenDirectory, 'generation'>,
    private readonly intervalMs: number,
    private readonly active: () => boolean,
    private readonly onLost: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  async check(): Promise<void> {
    if (this.busy || !this.active()) return;
    this.busy = true;
    try {
      if ((await this.state.generation()) === null) await this.onLost();
    } catch (error) {
      this.onError(error);
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
