import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/token.js';
import { settingsRecord } from '../../../src/reconcile/settings.js';
import { newGeneration } from '../../../src/runtime/generation-watch.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { FailoverWatch, type FailoverSeen } from '../../../src/state/redis/failover-watch.js';
import { FailoverGateClosed, RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';

const box = new SecretBox(randomBytes(32));
const TOKEN = hashToken('gwct_failover_gate_test_token');

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('after a failover, token lookups wait for the writer', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.destroy();
  });

  it('refuses every lookup until a generation mark newer than the old primary’s is written', async () => {
    const refused: number[] = [];
    const state = new RedisState(connectRedis(redis.url), box, { onGateRefused: () => refused.push(1) });
    await state.ready();
    await state.replaceCompany({
      company: 'acme',
      settings: settingsRecord('acme', { tokenDomain: 'acme.example' }),
      tokens: [{ hash: TOKEN, company: 'acme', name: 'alice', address: 'alice@acme.example' }],
      credentials: [],
    });
    const before = newGeneration();
    await state.markLoaded(before);
    expect((await state.findToken(TOKEN))?.name).toBe('alice');

    state.closeUntilNewerThan(before);
    expect(state.gateClosed()).toBe(true);
    await expect(state.findToken(TOKEN)).rejects.toBeInstanceOf(FailoverGateClosed);
    // The same mark again (an old primary that kept it) does not open it.
    await state.markLoaded(before);
    await expect(state.findToken(TOKEN)).rejects.toBeInstanceOf(FailoverGateClosed);
    expect(refused).toHaveLength(2);

    await new Promise((r) => setTimeout(r, 5));
    await state.markLoaded(newGeneration());
    expect((await state.findToken(TOKEN))?.name).toBe('alice');
    expect(state.gateClosed()).toBe(false);
    await state.close();
  });

  it('does not trust a lookup the gate closed during: the promoted node may have answered it', async () => {
    const state = new RedisState(connectRedis(redis.url), box);
    await state.ready();
    await state.replaceCompany({
      company: 'acme',
      settings: settingsRecord('acme', { tokenDomain: 'acme.example' }),
      tokens: [{ hash: TOKEN, company: 'acme', name: 'alice', address: 'alice@acme.example' }],
      credentials: [],
    });
    const before = newGeneration();
    await state.markLoaded(before);
    // The lookup is on the wire when the failover is seen (and again when a reconnect is suspected and cleared).
    const inFlight = state.findToken(TOKEN);
    state.closeUntilNewerThan(before);
    await expect(inFlight).rejects.toBeInstanceOf(FailoverGateClosed);
    await new Promise((r) => setTimeout(r, 5));
    await state.markLoaded(newGeneration());
    expect((await state.findToken(TOKEN))?.name).toBe('alice');
    const suspected = state.findToken(TOKEN);
    state.suspend(true);
    state.suspend(false);
    await expect(suspected).rejects.toBeInstanceOf(FailoverGateClosed);
    expect((await state.findToken(TOKEN))?.name).toBe('alice');
    await state.close();
  });

  it('the watch reports a primary whose run_id changed (a restart here), with the mark read before it', async () => {
    const client = connectRedis(redis.url);
    client.on('error', () => undefined);
    const seen: FailoverSeen[] = [];
    const suspected: string[] = [];
    const watch = new FailoverWatch(client, (s) => seen.push(s), 50, { onSuspect: () => suspected.push('suspect'), onCleared: () => suspected.push('cleared') });
    await until('connected', () => client.status === 'ready');
    const mark = newGeneration();
    await client.set('gw:generation', mark);
    watch.start();
    await until('the watch has read the mark', () => watch.lastGeneration() === mark);
    expect(seen).toEqual([]);
    await redis.kill();
    await redis.start();
    await until('the restart is reported', () => seen.length === 1);
    expect(seen[0]?.generationBefore).toBe(mark);
    expect(seen[0]?.before).not.toBe(seen[0]?.after);
    // The reconnect was suspected before anything was read, and cleared by the comparison.
    expect(suspected).toEqual(['suspect', 'cleared']);
    watch.stop();
    client.disconnect();
  });
});
