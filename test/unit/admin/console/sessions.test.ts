import { describe, expect, it } from 'vitest';
import { MemorySessionStore, newSessionId, remainingMs, sessionKey, type ConsoleSession } from '../../../../src/admin/console/sessions.js';

const limits = { idleMs: 1_000, absoluteMs: 10_000 };

describe('console sessions', () => {
  it('end at the idle limit after the last call, and at the absolute limit however busy', () => {
    const s: ConsoleSession = { who: 'a', bearer: 'b', created: 0, seen: 0 };
    expect(remainingMs(s, limits, 999)).toBe(1);
    expect(remainingMs(s, limits, 1_000)).toBe(0);
    const busy = { ...s, seen: 9_900 };
    expect(remainingMs(busy, limits, 9_950)).toBe(50);
    expect(remainingMs(busy, limits, 10_000)).toBe(0);
  });

  it('are keyed by a digest of the cookie value, never the value itself', () => {
    const id = newSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessionKey(id)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionKey(id)).not.toContain(id);
    expect(newSessionId()).not.toBe(id);
  });

  it('in memory, forget a session past its time and on delete', async () => {
    let now = 0;
    const store = new MemorySessionStore(() => now);
    const s: ConsoleSession = { who: 'a', bearer: 'b', created: 0, seen: 0 };
    await store.put('k', s, 100);
    expect(await store.get('k')).toEqual(s);
    now = 100;
    expect(await store.get('k')).toBeNull();
    await store.put('k2', s, 100);
    await store.delete('k2');
    expect(await store.get('k2')).toBeNull();
  });
});
