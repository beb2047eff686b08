import { describe, expect, it } from 'vitest';
import { chooseCredential, type CandidateLoad } from '../../../src/state/lease-choice.js';
import type { CredentialHealth, SeatWindow } from '../../../src/state/state.js';
import { credential } from '../support/records.js';

const NOW = 1_760_000_000_000;
const HOUR = 3_600_000;
const HEALTHY: CredentialHealth = { healthy: true, reason: null, windows: [] };

function load(name: string, options: { inUse?: number; max?: number; priority?: number; health?: Partial<CredentialHealth> } = {}): CandidateLoad {
  return {
    credential: credential({ name, maxConcurrency: options.max ?? 4, priority: options.priority ?? 0 }),
    inUse: options.inUse ?? 0,
    health: { ...HEALTHY, ...options.health },
  };
}

function window(name: '5h' | '7d', exhausted: boolean, resetAt: number | null): SeatWindow {
  return { window: name, exhausted, utilization: exhausted ? 1 : 0.5, resetAt };
}

function chosen(loads: CandidateLoad[], sticky: string | null = null, now = NOW): string {
  const choice = chooseCredential(loads, sticky, now);
  if (!choice.ok) throw new Error(`no credential chosen: ${choice.reason}`);
  return choice.credential.name;
}

describe('chooseCredential', () => {
  it('prefers the highest priority with room, however loaded', () => {
    expect(chosen([load('low', { priority: 0 }), load('high', { priority: 5, inUse: 3 })])).toBe('high');
    expect(chosen([load('low', { priority: -1 }), load('high', { priority: 5, inUse: 4 })])).toBe('low');
  });

  it('among equal priorities takes the least loaded relative to its size', () => {
    expect(chosen([load('big', { max: 10, inUse: 5 }), load('small', { max: 2, inUse: 0 })])).toBe('small');
    expect(chosen([load('big', { max: 10, inUse: 2 }), load('small', { max: 4, inUse: 1 })])).toBe('big');
    expect(chosen([load('a', { max: 4, inUse: 1 }), load('b', { max: 8, inUse: 1 })])).toBe('b');
  });

  it('breaks an exact tie by the order of the candidates', () => {
    expect(chosen([load('first', { max: 4, inUse: 2 }), load('second', { max: 2, inUse: 1 })])).toBe('first');
  });

  it('keeps a session on its credential while that one has room, even against priority and load', () => {
    const loads = [load('best', { priority: 10 }), load('sticky', { priority: 0, inUse: 3, max: 4 })];
    expect(chosen(loads, 'sticky')).toBe('sticky');
    expect(chosen([load('best', { priority: 10 }), load('sticky', { inUse: 4, max: 4 })], 'sticky')).toBe('best');
    expect(chosen(loads, 'gone')).toBe('best');
  });

  it('moves a session off an unhealthy or exhausted credential', () => {
    expect(chosen([load('sticky', { health: { healthy: false, reason: 'upstream answered 401' } }), load('other')], 'sticky')).toBe('other');
    expect(chosen([load('sticky', { health: { windows: [window('5h', true, NOW + HOUR)] } }), load('other')], 'sticky')).toBe('other');
  });

  it('skips unhealthy credentials', () => {
    expect(chosen([load('sick', { priority: 9, health: { healthy: false, reason: 'upstream answered 403' } }), load('well')])).toBe('well');
  });

  it('skips a seat inside an exhausted window until its reset, then takes it again', () => {
    const seat = load('seat', { priority: 5, health: { windows: [window('5h', true, NOW + HOUR)] } });
    const key = load('key');
    expect(chosen([seat, key], null, NOW)).toBe('key');
    expect(chosen([seat, key], null, NOW + HOUR - 1)).toBe('key');
    expect(chosen([seat, key], null, NOW + HOUR)).toBe('seat');
  });

  it('ignores windows that are not exhausted', () => {
    expect(chosen([load('seat', { priority: 5, health: { windows: [window('5h', false, NOW + HOUR), window('7d', false, null)] } }), load('key')])).toBe('seat');
  });

  it('is busy when usable credentials are all full, even if others are exhausted', () => {
    const full = load('full', { inUse: 4, max: 4 });
    const exhausted = load('seat', { health: { windows: [window('7d', true, NOW + HOUR)] } });
    expect(chooseCredential([full, exhausted], null, NOW)).toEqual({ ok: false, reason: 'busy' });
  });

  it('is exhausted, with the earliest reset, when every candidate is inside an exhausted window', () => {
    const a = load('a', { health: { windows: [window('5h', true, NOW + 3 * HOUR)] } });
    const b = load('b', { health: { windows: [window('5h', true, NOW + HOUR)] } });
    expect(chooseCredential([a, b], null, NOW)).toEqual({ ok: false, reason: 'exhausted', earliestReset: NOW + HOUR });
  });

  it('reports an unknown reset as null, not as a far-future instant', () => {
    const unknown = load('seat', { health: { windows: [window('5h', true, null)] } });
    const outcome = chooseCredential([unknown], null, NOW);
    expect(outcome).toEqual({ ok: false, reason: 'exhausted', earliestReset: null });
    const known = load('other', { health: { windows: [window('7d', true, NOW + HOUR)] } });
    expect(chooseCredential([unknown, known], null, NOW)).toEqual({ ok: false, reason: 'exhausted', earliestReset: NOW + HOUR });
  });

  it('is busy with no candidates', () => {
    expect(chooseCredential([], null, NOW)).toEqual({ ok: false, reason: 'busy' });
  });

  it('is rejected, naming them, when only unhealthy candidates are left: waiting frees none of them', () => {
    const sick = load('sick', { health: { healthy: false, reason: 'x', windows: [window('5h', true, NOW + HOUR)] } });
    expect(chooseCredential([sick, load('also-sick', { health: { healthy: false, reason: 'y' } })], null, NOW)).toEqual({
      ok: false,
      reason: 'rejected',
      credentials: ['sick', 'also-sick'],
    });
  });

  it('prefers busy or exhausted over rejected when a healthy candidate exists, since those free by themselves', () => {
    const sick = load('sick', { health: { healthy: false, reason: 'x' } });
    expect(chooseCredential([sick, load('full', { inUse: 4, max: 4 })], null, NOW)).toEqual({ ok: false, reason: 'busy' });
    const seat = load('seat', { health: { windows: [window('5h', true, NOW + HOUR)] } });
    expect(chooseCredential([sick, seat], null, NOW)).toEqual({ ok: false, reason: 'exhausted', earliestReset: NOW + HOUR });
  });
});
