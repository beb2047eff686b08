import { afterEach, describe, expect, it } from 'vitest';
import { CredentialHealthMonitor, type CredentialHealthEvents, type KeyCheckResult, type KeyVerdict } from '../../../src/credentials/health-monitor.js';
import { MemoryState } from '../../../src/state/memory.js';
import type { CredentialRecord } from '../../../src/state/records.js';
import { company, credential } from '../support/records.js';

/** A provider's answers to the gateway's key check, scripted per key; every check is counted. */
function scriptedCheck(verdicts: Map<string, KeyVerdict>): { check: (c: CredentialRecord) => Promise<KeyCheckResult>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async check(c) {
      calls.push(c.secret);
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

async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const KEY = credential({ name: 'key', secret: 'sk-key-1' });
const FAST = { minCheckIntervalMs: 60_000, probeInitialMs: 10, probeMaxMs: 40 };

describe('CredentialHealthMonitor', () => {
  let monitor: CredentialHealthMonitor | null = null;
  afterEach(() => monitor?.close());

  it('keeps a credential healthy when a caller got 401 but the key check accepts the key', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    const { check, calls } = scriptedCheck(new Map());
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, FAST);
    monitor.suspect(KEY, 401);
    await until('the verdict', () => events.log.length > 0);
    expect(events.log).toEqual(['unconfirmed acme/key 401 accepted']);
    expect(calls).toEqual(['sk-key-1']);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(true);
  });

  it('does not mark on an inconclusive check (provider down, no endpoint)', async () => {
    const state = new MemoryState();
    const { check } = scriptedCheck(new Map([['sk-key-1', 'inconclusive']]));
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, FAST);
    monitor.suspect(KEY, 403);
    await until('the verdict', () => events.log.length > 0);
    expect(events.log).toEqual(['unconfirmed acme/key 403 inconclusive']);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(true);
  });

  it('checks at most once per interval, however many callers provoke a 401', async () => {
    const state = new MemoryState();
    const { check, calls } = scriptedCheck(new Map());
    monitor = new CredentialHealthMonitor(state, check, recordingEvents(), FAST);
    for (let i = 0; i < 50; i++) monitor.suspect(KEY, 401);
    await until('the one check', () => calls.length === 1);
    for (let i = 0; i < 50; i++) monitor.suspect(KEY, 401);
    // A later suspicion of another key is checked: once it is, the repeats of the first had their chance.
    monitor.suspect(credential({ name: 'other', secret: 'sk-other' }), 401);
    await until('the other key checked', () => calls.includes('sk-other'));
    expect(calls.filter((c) => c === 'sk-key-1')).toHaveLength(1);
  });

  it('marks the credential unhealthy when the key check is refused too, then probes with backoff and brings it back once accepted', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    const verdicts = new Map<string, KeyVerdict>([['sk-key-1', 'rejected']]);
    const { check, calls } = scriptedCheck(verdicts);
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, FAST);
    monitor.suspect(KEY, 401);
    await until('the mark', async () => !(await state.credentialHealth('acme', 'key')).healthy);
    expect((await state.credentialHealth('acme', 'key')).reason).toBe("provider answered 401 to the gateway's key check");
    expect(events.log).toEqual(['confirmed acme/key 401']);
    // Probes keep finding it rejected (the backoff doubles to the cap)...
    await until('three probes', () => calls.length >= 4);
    expect((await state.credentialHealth('acme', 'key')).healthy).toBe(false);
    expect(monitor.probing()).toBe(1);
    // ...until an owner fixes it at the provider.
    verdicts.set('sk-key-1', 'accepted');
    await until('the recovery', async () => (await state.credentialHealth('acme', 'key')).healthy);
    expect(events.log.at(-1)).toBe('recovered acme/key');
    expect(monitor.probing()).toBe(0);
  });

  it('keeps seat windows when a credential recovers', async () => {
    const state = new MemoryState();
    const seat = credential({ name: 'seat', kind: 'subscriptionSeat', secret: 'sk-seat' });
    await state.replaceCompany(company({ credentials: [seat] }));
    await state.updateSeatWindows('acme', 'seat', [{ window: '5h', exhausted: false, utilization: 0.4, resetAt: 123 }]);
    await state.markCredentialUnhealthy('acme', 'seat', 'x');
    await state.markCredentialHealthy('acme', 'seat');
    expect(await state.credentialHealth('acme', 'seat')).toEqual({ healthy: true, reason: null, windows: [{ window: '5h', exhausted: false, utilization: 0.4, resetAt: 123 }] });
  });

  it('probes a credential another replica marked, when leasing finds only rejected ones, and stops once it is healthy', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    await state.markCredentialUnhealthy('acme', 'key', 'marked elsewhere');
    const { check, calls } = scriptedCheck(new Map());
    const events = recordingEvents();
    monitor = new CredentialHealthMonitor(state, check, events, FAST);
    monitor.rejectedInUse([KEY]);
    monitor.rejectedInUse([KEY]);
    await until('the recovery', async () => (await state.credentialHealth('acme', 'key')).healthy);
    expect(calls).toEqual(['sk-key-1']);
    expect(events.log).toEqual(['recovered acme/key']);
  });

  it('stops probing without a check when the credential is healthy again by other means (a rotated Secret)', async () => {
    const state = new MemoryState();
    await state.replaceCompany(company({ credentials: [KEY] }));
    await state.markCredentialUnhealthy('acme', 'key', 'x');
    const { check, calls } = scriptedCheck(new Map([['sk-key-1', 'rejected']]));
    monitor = new CredentialHealthMonitor(state, check, recordingEvents(), { ...FAST, probeInitialMs: 30 });
    monitor.rejectedInUse([KEY]);
    await state.replaceCompany(company({ credentials: [{ ...KEY, secret: 'sk-key-2' }] }));
    await until('the probe to stop', () => monitor?.probing() === 0);
    expect(calls).toEqual([]);
  });
});
