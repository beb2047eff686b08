import { describe, expect, it } from 'vitest';
import { electionTiming, LeaderElector, LeaseConflict, type LeaseRecord, type LeaseStore, type StoredLease } from '../../../src/operator/leader-election.js';

/** A Lease kept in memory with resourceVersion semantics; `failing` plays an API server that cannot be reached. */
class MemoryLeaseStore implements LeaseStore {
  lease: StoredLease | null = null;
  private version = 0;
  failing = false;

  async get(): Promise<StoredLease | null> {
    if (this.failing) throw new Error('connect ECONNREFUSED');
    return this.lease;
  }
  async create(record: LeaseRecord): Promise<StoredLease> {
    if (this.failing) throw new Error('connect ECONNREFUSED');
    if (this.lease) throw new LeaseConflict('exists');
    this.lease = { record, version: String(++this.version) };
    return this.lease;
  }
  async update(record: LeaseRecord, version: string): Promise<StoredLease> {
    if (this.failing) throw new Error('connect ECONNREFUSED');
    if (!this.lease || this.lease.version !== version) throw new LeaseConflict('changed');
    this.lease = { record, version: String(++this.version) };
    return this.lease;
  }
}

class FakeClock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

const TIMING = electionTiming(15); // 15 s lease, 10 s renew deadline, 2 s retry

function candidate(store: LeaseStore, identity: string, clock: FakeClock): { elector: LeaderElector; transitions: string[] } {
  const transitions: string[] = [];
  const elector = new LeaderElector(store, identity, TIMING, clock, {
    onStartedLeading: () => transitions.push('started'),
    onStoppedLeading: () => transitions.push('stopped'),
  });
  return { elector, transitions };
}

describe('LeaderElector (fake clock, Lease in memory)', () => {
  it('uses client-go proportions for its timing', () => {
    expect(electionTiming(15)).toEqual({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 });
  });

  it('the first candidate creates the Lease and leads; a second one follows while the leader renews', async () => {
    const store = new MemoryLeaseStore();
    const clockA = new FakeClock(1_000_000);
    const clockB = new FakeClock(5_000);
    const a = candidate(store, 'a', clockA);
    const b = candidate(store, 'b', clockB);
    await a.elector.step();
    expect(a.elector.isLeader()).toBe(true);
    expect(a.transitions).toEqual(['started']);
    expect(store.lease?.record).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    for (let i = 0; i < 20; i++) {
      clockA.t += 2_000;
      clockB.t += 2_000;
      await a.elector.step();
      await b.elector.step();
    }
    expect(b.elector.isLeader()).toBe(false);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.transitions).toEqual(['started']);
    expect(store.lease?.record.holderIdentity).toBe('a');
  });

  it('takes over only after seeing the record unchanged for a whole lease duration on its own clock, whatever the leader clock said', async () => {
    const store = new MemoryLeaseStore();
    // The dead leader's clock was far ahead: its renewTime is in b's future, which b must ignore.
    const clockA = new FakeClock(10_000_000);
    const clockB = new FakeClock(0);
    const a = candidate(store, 'a', clockA);
    const b = candidate(store, 'b', clockB);
    await a.elector.step();
    await b.elector.step(); // b first sees the record at t=0
    clockB.t = 14_999;
    await b.elector.step();
    expect(b.elector.isLeader()).toBe(false);
    clockB.t = 15_000;
    await b.elector.step();
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.record).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1, acquireTime: 15_000, renewTime: 15_000 });
  });

  it('a renewal seen meanwhile restarts the follower count', async () => {
    const store = new MemoryLeaseStore();
    const clock = new FakeClock(0);
    const a = candidate(store, 'a', clock);
    const b = candidate(store, 'b', clock);
    await a.elector.step();
    await b.elector.step();
    clock.t = 14_000;
    await a.elector.step(); // renewed at 14 s
    await b.elector.step(); // b sees a new version at 14 s
    clock.t = 20_000;
    await b.elector.step();
    expect(b.elector.isLeader()).toBe(false);
    clock.t = 29_000;
    await b.elector.step();
    expect(b.elector.isLeader()).toBe(true);
  });

  it('a leader that cannot renew keeps leading until the renew deadline, then stops (before anyone may take over)', async () => {
    const store = new MemoryLeaseStore();
    const clock = new FakeClock(0);
    const a = candidate(store, 'a', clock);
    await a.elector.step();
    store.failing = true;
    clock.t = 9_999;
    await a.elector.step();
    expect(a.elector.isLeader()).toBe(true);
    clock.t = 10_000;
    await a.elector.step();
    expect(a.elector.isLeader()).toBe(false);
    expect(a.transitions).toEqual(['started', 'stopped']);
    expect(TIMING.renewDeadlineMs).toBeLessThan(TIMING.leaseDurationMs);
  });

  it('a leader that finds someone else holding the Lease stops at once', async () => {
    const store = new MemoryLeaseStore();
    const clock = new FakeClock(0);
    const a = candidate(store, 'a', clock);
    await a.elector.step();
    const lease = store.lease as StoredLease;
    await store.update({ ...lease.record, holderIdentity: 'intruder', renewTime: 1 }, lease.version);
    clock.t = 2_000;
    await a.elector.step();
    expect(a.elector.isLeader()).toBe(false);
    expect(a.transitions).toEqual(['started', 'stopped']);
  });

  it('stop() hands the Lease back, so a follower takes over at its next attempt', async () => {
    const store = new MemoryLeaseStore();
    const clock = new FakeClock(0);
    const a = candidate(store, 'a', clock);
    const b = candidate(store, 'b', clock);
    await a.elector.step();
    await b.elector.step();
    await a.elector.stop(true);
    expect(a.transitions).toEqual(['started', 'stopped']);
    expect(store.lease?.record.holderIdentity).toBeNull();
    clock.t = 2_000;
    await b.elector.step();
    expect(b.elector.isLeader()).toBe(true);
    expect(store.lease?.record).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('of two candidates writing the same version, exactly one wins', async () => {
    const store = new MemoryLeaseStore();
    const clock = new FakeClock(0);
    const dead = candidate(store, 'dead', clock);
    await dead.elector.step();
    const x = candidate(store, 'x', clock);
    const y = candidate(store, 'y', clock);
    await x.elector.tryAcquireOrRenew();
    await y.elector.tryAcquireOrRenew();
    clock.t = 15_000;
    // Both read the same expired record before either writes.
    const realGet = store.get.bind(store);
    const snapshot = await realGet();
    store.get = async () => snapshot;
    const results = await Promise.all([x.elector.tryAcquireOrRenew(), y.elector.tryAcquireOrRenew()]);
    expect(results.sort()).toEqual(['failed', 'held']);
  });

  it('a candidate that sees the Lease held by its own identity (a restarted replica) resumes it without a transition', async () => {
    const store = new MemoryLeaseStore();
    const clock = new FakeClock(0);
    await candidate(store, 'pod-1', clock).elector.step();
    const restarted = candidate(store, 'pod-1', clock);
    clock.t = 1_000;
    await restarted.elector.step();
    expect(restarted.elector.isLeader()).toBe(true);
    expect(store.lease?.record).toMatchObject({ holderIdentity: 'pod-1', leaseTransitions: 0, acquireTime: 0 });
  });

  it('raiseEpoch: the holder lifts its epoch above a fence (a deleted Lease restarted the count); a replica that lost the Lease cannot', async () => {
    const store = new MemoryLeaseStore();
    const clockA = new FakeClock(0);
    const clockB = new FakeClock(0);
    const a = candidate(store, 'a', clockA);
    await a.elector.step();
    expect(a.elector.epoch()).toBe(0);
    expect(await a.elector.raiseEpoch(41)).toBe(true);
    expect(a.elector.epoch()).toBe(42);
    expect(store.lease?.record).toMatchObject({ holderIdentity: 'a', leaseTransitions: 42 });
    // Already above: nothing to write.
    const version = store.lease?.version;
    expect(await a.elector.raiseEpoch(10)).toBe(true);
    expect(store.lease?.version).toBe(version);

    // b takes over; a, paused through it, still believes it leads and is refused.
    const b = candidate(store, 'b', clockB);
    await b.elector.step();
    clockB.t += 16_000;
    await b.elector.step();
    expect(b.elector.isLeader()).toBe(true);
    expect(b.elector.epoch()).toBe(43);
    expect(a.elector.isLeader()).toBe(true);
    expect(await a.elector.raiseEpoch(43)).toBe(false);
    expect(store.lease?.record).toMatchObject({ holderIdentity: 'b', leaseTransitions: 43 });
  });
});
