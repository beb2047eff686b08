import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CredentialHealthMonitor, type CredentialHealthEvents, type KeyCheckResult, type KeyVerdict } from '../../../src/credentials/health-monitor.js';
import { MemoryState } from '../../../src/state/memory.js';
import type { CredentialRecord } from '../../../src/state/records.js';
import { company, credential } from '../support/records.js';

/**
 * The monitor on a fake clock: vitest's fake timers drive its probe timers
 * and its check interval (Date.now is faked too), so backoff and intervals are
 * asserted exactly and nothing depends on how busy the machine is.
 */

/** A provider's answers to the gateway's key check, scripted per key; every check is counted with the fake time it ran at. */
function scriptedCheck(verdicts: Map<string, KeyVerdict>): { check: (c: CredentialRecord) => Promise<KeyCheckResult>; calls: string[]; at: number[] } {
  const calls: string[] = [];
  const at: number[] = [];
  return {
    calls,
    at,
    async check(c) {
      calls.push(c.secret);
      at.push(Date.now());
      const verdict = verdicts.get(c.secret) ?? 'accepted';
      return { verdict, status: verdict === 'rejected' ? 401 : verdict === 'accepted' ? 200 : 503 };
    },
  };
}

function recordingEvents(): CredentialHealthEvents & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    confirmed: (co, cr, status) => log.push(`confirmed ${co}/${cr} ${status}`),
    recovered: (co, cr) => log.push(`recovered ${co}/${cr}`),
    unconfirmed: (co, cr, status, check) => log.push(`unconfirmed ${co}/${cr} ${status} ${check.verdict}`),
    error: (op) => log.push(`error ${op}`),
  };
}

/** Lets the monitor's promise chains (check → state → events) run without moving the clock. */
const settle = async (): Promise<void> => {
  await vi.advanceTimersByTimeAsync(0);
};

const KEY = credential({ name: 'key', secret: 'sk-key-1' });
const OPTIONS = { minCheckIntervalMs: 60_000, probeInitialMs: 1_000, probeMaxMs: 4_000 };
const T0 = 1_700_000_000_000;

describe('CredentialHealthMonitor', () => {
  let monitor: CredentialHealthMonitor | null = null;
  beforeEach(() => {
    vi.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    monitor?.close();
    monitor = null;
    vi.useRealTimers();
  });

  it('keeps a credential healthy when a caller got 401 but the key check accepts the key', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    const { check, calls } = scriptedCheck(new Map());
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, OPTIONS);
    monitor.suspect(KEY, 401);
    await settle();
    expect(events.log).toEqual(['unconfirmed acme/key 401 accepted']);
    expect(calls).toEqual(['sk-key-1']);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(true);
    expect(monitor.probing()).toBe(0);
  });

  it('does not mark on an inconclusive check (provider down, no endpoint)', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    const { check } = scriptedCheck(new Map([['sk-key-1', 'inconclusive']]));
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, OPTIONS);
    monitor.suspect(KEY, 403);
    await settle();
    expect(events.log).toEqual(['unconfirmed acme/key 403 inconclusive']);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(true);
  });

  it('checks at most once per interval, however many callers provoke a 401, and again once the interval has passed', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    const { check, calls, at } = scriptedCheck(new Map());
    monitor = new CredentialHealthMonitor(state, check, recordingEvents(), OPTIONS);
    for (let i = 0; i < 50; i++) monitor.suspect(KEY, 401);
    await settle();
    await vi.advanceTimersByTimeAsync(OPTIONS.minCheckIntervalMs - 1);
    for (let i = 0; i < 50; i++) monitor.suspect(KEY, 401);
    await settle();
    expect(calls).toEqual(['sk-key-1']);
    await vi.advanceTimersByTimeAsync(1);
    monitor.suspect(KEY, 401);
    await settle();
    expect(at).toEqual([T0, T0 + OPTIONS.minCheckIntervalMs]);
  });

  it('marks the credential unhealthy when the key check is refused too, probes with a backoff that doubles to its cap, and brings it back once accepted', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    const verdicts = new Map<string, KeyVerdict>([['sk-key-1', 'rejected']]);
    const { check, at } = scriptedCheck(verdicts);
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, OPTIONS);
    monitor.suspect(KEY, 401);
    await settle();
    expect(await state.credentialHealth('acme', 'key')).toMatchObject({ healthy: false, reason: "provider answered 401 to the gateway's key check" });
    expect(events.log).toEqual(['confirmed acme/key 401']);
    // Probes keep finding it rejected: 1 s, then 2 s, then 4 s, then 4 s (the cap).
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 4_000);
    expect(at.map((t) => t - T0)).toEqual([0, 1_000, 3_000, 7_000, 11_000]);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(false);
    expect(monitor.probing()).toBe(1);
    // ...until an owner fixes it at the provider: the next probe (4 s later) finds it accepted.
    verdicts.set('sk-key-1', 'accepted');
    await vi.advanceTimersByTimeAsync(3_999);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(true);
    expect(events.log.at(-1)).toBe('recovered acme/key');
    expect(monitor.probing()).toBe(0);
  });

  it("keeps a seat's windows when the monitor marks it rejected and brings it back", async () => {
    const state = new MemoryState();
    const seat = credential({ name: 'seat', kind: 'subscriptionSeat', secret: 'sk-seat' });
    await state.replaceCompany(company({ credentials: [seat] }));
    const windows = [{ window: '5h', exhausted: false, utilization: 0.4, resetAt: 123 }];
    await state.updateSeatWindows('acme', 'seat', windows);
    const verdicts = new Map<string, KeyVerdict>([['sk-seat', 'rejected']]);
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, scriptedCheck(verdicts).check, events, OPTIONS);
    monitor.suspect(seat, 403);
    await settle();
    expect(await state.credentialHealth('acme', 'seat')).toMatchObject({ healthy: false, windows });
    verdicts.set('sk-seat', 'accepted');
    await vi.advanceTimersByTimeAsync(OPTIONS.probeInitialMs);
    expect(await state.credentialHealth('acme', 'seat')).toEqual({ healthy: true, reason: null, windows });
    expect(events.log).toEqual(['confirmed acme/seat 401', 'recovered acme/seat']);
  });

  it('probes a credential another replica marked, when leasing finds only rejected ones, once however often it is reported, and stops once it is healthy', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    await state.markCredentialUnhealthy('acme', 'key', 'marked elsewhere');
    const { check, calls, at } = scriptedCheck(new Map());
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, OPTIONS);
    monitor.rejectedInUse([KEY]);
    monitor.rejectedInUse([KEY]);
    await vi.advanceTimersByTimeAsync(OPTIONS.probeInitialMs);
    expect(calls).toEqual(['sk-key-1']);
    expect(at).toEqual([T0 + OPTIONS.probeInitialMs]);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(true);
    expect(events.log).toEqual(['recovered acme/key']);
    expect(monitor.probing()).toBe(0);
  });

  it('stops probing without a check when the credential is healthy again by other means (a rotated Secret)', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    await state.markCredentialUnhealthy('acme', 'key', 'x');
    const { check, calls } = scriptedCheck(new Map([['sk-key-1', 'rejected']]));
    monitor = new CredentialHealthMonitor(state, check, recordingEvents(), OPTIONS);
    monitor.rejectedInUse([KEY]);
    await state.replaceCompany(company({ credentials: [{ ...KEY, secret: 'sk-key-2' }] }));
    expect(monitor.probing()).toBe(1);
    await vi.advanceTimersByTimeAsync(OPTIONS.probeInitialMs);
    expect(monitor.probing()).toBe(0);
    expect(calls).toEqual([]);
  });

  it('schedules nothing more once closed, even when a probe in flight comes back rejected', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    await state.markCredentialUnhealthy('acme', 'key', 'x');
    let answer: (result: KeyCheckResult) => void = () => {};
    const calls: string[] = [];
    const check = (c: CredentialRecord): Promise<KeyCheckResult> => {
      calls.push(c.secret);
      return new Promise((resolve) => (answer = resolve));
    };
    monitor = new CredentialHealthMonitor(state, check, recordingEvents(), OPTIONS);
    monitor.rejectedInUse([KEY]);
    await vi.advanceTimersByTimeAsync(OPTIONS.probeInitialMs);
    expect(calls).toEqual(['sk-key-1']);
    monitor.close();
    answer({ verdict: 'rejected', status: 401 });
    await vi.advanceTimersByTimeAsync(10 * OPTIONS.probeMaxMs);
    monitor.suspect({ ...KEY, secret: 'sk-key-3' }, 401);
    monitor.rejectedInUse([KEY]);
    await settle();
    expect(calls).toEqual(['sk-key-1']);
    expect(monitor.probing()).toBe(0);
  });
});
