// A per-request time budget. Checking the clock costs tens of nanoseconds,
// so callers tick and only every `stride`-th tick reads it.

export type Clock = () => number;

export class Budget {
  exhausted = false;
  private readonly deadline: number;
  // An unlimited budget (the gateway's) never reads the clock.
  private readonly limited: boolean;
  private ticks = 0;

  constructor(
    ms: number,
    private readonly now: Clock,
    private readonly stride = 8,
  ) {
    this.limited = Number.isFinite(ms);
    this.deadline = this.limited ? now() + ms : Number.POSITIVE_INFINITY;
    if (ms <= 0) this.exhausted = true;
  }

  /** Reads the clock now; true once the deadline has passed. */
  check(): boolean {
    if (this.limited && !this.exhausted && this.now() > this.deadline) this.exhausted = true;
    return this.exhausted;
  }

  /** Counts a unit of work and reads the clock every `stride` units. */
  tick(): boolean {
    if (!this.limited) return this.exhausted;
    if (++this.ticks >= this.stride) {
      this.ticks = 0;
      return this.check();
    }
    return this.exhausted;
  }
}
