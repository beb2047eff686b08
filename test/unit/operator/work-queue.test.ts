import { describe, expect, it } from 'vitest';
import { WorkQueue, type Timers } from '../../../src/operator/work-queue.js';

/** Timers under the test's control: nothing fires until the test says so. */
class ManualTimers implements Timers {
  private next = 1;
  readonly scheduled = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.scheduled.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.scheduled.delete(handle as number);
  }
  delays(): number[] {
    return [...this.scheduled.values()].map((t) => t.ms);
  }
  fireAll(): void {
    const due = [...this.scheduled.values()];
    this.scheduled.clear();
    for (const t of due) t.fn();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('WorkQueue', () => {
  it('never runs one key twice at once, runs it again after a change seen meanwhile, and runs other keys in parallel', async () => {
    const gates: Array<ReturnType<typeof deferred>> = [];
    const log: string[] = [];
    let inFlightA = 0;
    let maxInFlightA = 0;
    const queue = new WorkQueue(
      async (key) => {
        log.push(`start ${key}`);
        if (key === 'a') {
          inFlightA++;
          maxInFlightA = Math.max(maxInFlightA, inFlightA);
        }
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        if (key === 'a') inFlightA--;
        log.push(`end ${key}`);
      },
      { workers: 4, baseDelayMs: 10, maxDelayMs: 100, timers: new ManualTimers() },
    );
    queue.add('a');
    await tick();
    queue.add('a'); // arrives while a runs
    queue.add('b');
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    gates[0]?.resolve();
    await tick();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'end a', 'start a']);
    gates[1]?.resolve();
    gates[2]?.resolve();
    await queue.idle();
    expect(maxInFlightA).toBe(1);
    expect(log.filter((l) => l === 'start a')).toHaveLength(2);
  });

  it('keeps a waiting key once however often it is added', async () => {
    const seen: string[] = [];
    const gate = deferred();
    const queue = new WorkQueue(
      async (key) => {
        seen.push(key);
        if (key === 'busy') await gate.promise;
      },
      { workers: 1, baseDelayMs: 10, maxDelayMs: 100, timers: new ManualTimers() },
    );
    queue.add('busy');
    await tick();
    for (let i = 0; i < 5; i++) queue.add('ns-1');
    queue.add('ns-2');
    queue.add('ns-1');
    expect(queue.depth()).toBe(3);
    gate.resolve();
    await queue.idle();
    expect(seen).toEqual(['busy', 'ns-1', 'ns-2']);
  });

  it('retries a failing key with an exponential backoff up to the cap, and forgets the failures after a success', async () => {
    const timers = new ManualTimers();
    let failuresLeft = 4;
    let calls = 0;
    const retries: Array<{ attempt: number; delayMs: number }> = [];
    const queue = new WorkQueue(
      async () => {
        calls++;
        if (failuresLeft-- > 0) throw new Error('redis away');
      },
      { workers: 1, baseDelayMs: 100, maxDelayMs: 500, timers, onRetry: (_key, _error, attempt, delayMs) => retries.push({ attempt, delayMs }) },
    );
    queue.add('acme');
    for (let i = 0; i < 4; i++) {
      await queue.idle();
      expect(timers.delays()).toHaveLength(1);
      expect(queue.failuresOf('acme')).toBe(i + 1);
      timers.fireAll();
    }
    await queue.idle();
    expect(calls).toBe(5);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 100 },
      { attempt: 2, delayMs: 200 },
      { attempt: 3, delayMs: 400 },
      { attempt: 4, delayMs: 500 },
    ]);
    expect(queue.failuresOf('acme')).toBe(0);
    expect(timers.delays()).toEqual([]);
  });

  it('runs a key at once when it is added during its backoff (the new state deserves a try now)', async () => {
    const timers = new ManualTimers();
    let calls = 0;
    const queue = new WorkQueue(
      async () => {
        calls++;
        if (calls === 1) throw new Error('conflict');
      },
      { workers: 1, baseDelayMs: 1_000, maxDelayMs: 1_000, timers },
    );
    queue.add('acme');
    await queue.idle();
    expect(timers.delays()).toEqual([1_000]);
    queue.add('acme');
    await queue.idle();
    expect(calls).toBe(2);
    expect(timers.delays()).toEqual([]);
  });

  it('a key that failed while it was added again runs again right away', async () => {
    const timers = new ManualTimers();
    const gate = deferred();
    let calls = 0;
    const queue = new WorkQueue(
      async () => {
        calls++;
        if (calls === 1) {
          await gate.promise;
          throw new Error('stale cache');
        }
      },
      { workers: 1, baseDelayMs: 1_000, maxDelayMs: 1_000, timers },
    );
    queue.add('acme');
    await tick();
    queue.add('acme');
    gate.resolve();
    await tick();
    await queue.idle();
    expect(calls).toBe(2);
    expect(timers.delays()).toEqual([]);
  });

  it('stop drops waiting keys and retries and lets the running one finish', async () => {
    const timers = new ManualTimers();
    const gate = deferred();
    const seen: string[] = [];
    const queue = new WorkQueue(
      async (key) => {
        seen.push(key);
        if (key === 'running') await gate.promise;
        if (key === 'failing') throw new Error('x');
      },
      { workers: 1, baseDelayMs: 10, maxDelayMs: 10, timers },
    );
    queue.add('failing');
    await queue.idle();
    queue.add('running');
    await tick();
    queue.add('waiting');
    const stopped = queue.stop();
    gate.resolve();
    await stopped;
    timers.fireAll();
    queue.add('late');
    await queue.idle();
    expect(seen).toEqual(['failing', 'running']);
  });
});
