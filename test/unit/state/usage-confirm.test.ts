import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { DEFAULT_USAGE_CONFIRM, UsageConfirmer, type ConfirmRound } from '../../../src/state/redis/usage-confirm.js';
import { usageRecord } from '../../support/usage-records.js';

interface Scripted {
  round: ConfirmRound;
  calls: Array<{ company: string; ids: string[]; rewrite: boolean }>;
  answer: { restored: number; acknowledged: number } | Error;
}

/** A round that answers what the test says, and remembers what it was asked. */
function scripted(): Scripted {
  const state: Scripted = {
    calls: [],
    answer: { restored: 0, acknowledged: 1 },
    round: async (company, records, _replicas, _timeout, rewrite) => {
      state.calls.push({ company, ids: records.map((h) => h.record.request_id), rewrite });
      if (state.answer instanceof Error) throw state.answer;
      return state.answer;
    },
  };
  return state;
}

describe('UsageConfirmer', () => {
  const options = { ...DEFAULT_USAGE_CONFIRM, replicas: 1 };

  it('holds each record until a round is acknowledged by enough replicas, then lets the batch go', async () => {
    const s = scripted();
    const confirmer = new UsageConfirmer(options, s.round);
    const records = [usageRecord('acme', 1), usageRecord('acme', 2), usageRecord('globex', 3)];
    for (const r of records) confirmer.hold(r);
    confirmer.hold(records[0] as UsageRecord); // the same id again is not held twice
    expect(confirmer.heldRecords()).toBe(3);

    s.answer = { restored: 0, acknowledged: 0 };
    await confirmer.runDue(true);
    expect(confirmer.heldRecords()).toBe(3);
    expect(s.calls.map((c) => c.company).sort()).toEqual(['acme', 'globex']);
    expect(s.calls.find((c) => c.company === 'acme')?.ids).toEqual([records[0]?.request_id, records[1]?.request_id]);

    s.answer = new Error('Connection is closed.');
    await confirmer.runDue(true);
    expect(confirmer.heldRecords()).toBe(3);

    s.answer = { restored: 2, acknowledged: 1 };
    await confirmer.runDue(true);
    expect(confirmer.heldRecords()).toBe(0);
    confirmer.stop();
  });

  it('WAITs alone while the connection stays put, and writes the held records again once it may have moved', async () => {
    const s = scripted();
    const confirmer = new UsageConfirmer(options, s.round);
    confirmer.hold(usageRecord('acme', 1));
    s.answer = { restored: 0, acknowledged: 0 };
    await confirmer.runDue(true);
    s.answer = new Error('Connection is closed.');
    await confirmer.runDue(true);
    s.answer = { restored: 1, acknowledged: 0 };
    await confirmer.runDue(true);
    // A failed round may mean another node: from then on every round writes again, until one is acknowledged.
    expect(s.calls.map((c) => c.rewrite)).toEqual([false, false, true]);
    confirmer.connectionMoved();
    s.answer = { restored: 0, acknowledged: 1 };
    await confirmer.runDue(true);
    expect(s.calls.map((c) => c.rewrite)).toEqual([false, false, true, true]);
    expect(confirmer.heldRecords()).toBe(0);
    confirmer.hold(usageRecord('acme', 2));
    await confirmer.runDue(true);
    expect(s.calls.at(-1)?.rewrite).toBe(false);
    confirmer.stop();
  });

  it('trusts no round the connection moved during: its WAIT may have been resent to the node that lost the writes', async () => {
    const calls: boolean[] = [];
    let confirmer: UsageConfirmer | null = null;
    let moveDuringRound = true;
    const round: ConfirmRound = async (_company, _records, _replicas, _timeout, rewrite) => {
      calls.push(rewrite);
      // The primary dies while the round is on the wire; the client reconnects to the promoted replica and resends WAIT, which its replica acknowledges.
      if (moveDuringRound) confirmer?.connectionMoved();
      return { restored: 0, acknowledged: 1 };
    };
    confirmer = new UsageConfirmer(options, round);
    confirmer.hold(usageRecord('acme', 1));
    await confirmer.runDue(true);
    expect(confirmer.heldRecords()).toBe(1);
    moveDuringRound = false;
    await confirmer.runDue(true);
    expect(calls).toEqual([false, true]);
    expect(confirmer.heldRecords()).toBe(0);
    confirmer.stop();
  });

  it('reports records a round had to write again, and failed rounds', async () => {
    const s = scripted();
    const restored: Array<[string, number]> = [];
    const failed: string[] = [];
    const confirmer = new UsageConfirmer(options, s.round, { onRestored: (c, n) => restored.push([c, n]), onRoundFailed: (c) => failed.push(c) });
    confirmer.hold(usageRecord('acme', 1));
    s.answer = new Error('CLUSTERDOWN');
    await confirmer.runDue(true);
    s.answer = { restored: 1, acknowledged: 0 };
    await confirmer.runDue(true);
    expect(failed).toEqual(['acme']);
    expect(restored).toEqual([['acme', 1]]);
    expect(confirmer.heldRecords()).toBe(1);
    confirmer.stop();
  });

  it('waits longer after an unconfirmed round, and runs at once when a failover is seen', async () => {
    let clock = 1_000;
    const s = scripted();
    const confirmer = new UsageConfirmer(options, s.round, {}, () => clock);
    confirmer.hold(usageRecord('acme', 1));
    await confirmer.runDue();
    expect(s.calls).toHaveLength(0); // not due before the interval
    clock += options.intervalMs;
    s.answer = { restored: 0, acknowledged: 0 };
    await confirmer.runDue();
    expect(s.calls).toHaveLength(1);
    clock += options.intervalMs;
    await confirmer.runDue();
    expect(s.calls).toHaveLength(1); // backed off to retryMs
    confirmer.expedite();
    await confirmer.runDue();
    expect(s.calls).toHaveLength(2);
    confirmer.stop();
  });

  it('holds at most maxHeld: the company holding the most gives up its oldest, counted', () => {
    const released: string[] = [];
    const confirmer = new UsageConfirmer({ ...options, maxHeld: 3 }, scripted().round, { onReleased: (r) => released.push(r.request_id) });
    const flood = [usageRecord('flood', 1), usageRecord('flood', 2), usageRecord('flood', 3)];
    const quiet = usageRecord('quiet', 4);
    confirmer.hold(quiet);
    for (const r of flood) confirmer.hold(r);
    expect(confirmer.heldRecords()).toBe(3);
    expect(released).toEqual([flood[0]?.request_id]);
    confirmer.stop();
  });

  it('drain gives up after its deadline when no replica ever answers', async () => {
    const s = scripted();
    s.answer = { restored: 0, acknowledged: 0 };
    const confirmer = new UsageConfirmer({ ...options, retryMs: 10 }, s.round);
    confirmer.hold(usageRecord('acme', 1));
    await confirmer.drain(100);
    expect(confirmer.heldRecords()).toBe(1);
    expect(s.calls.length).toBeGreaterThan(0);
  });
});
