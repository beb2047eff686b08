import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { followSwitchMaster, SWITCH_MASTER_CHANNEL, switchTarget } from '../../../src/state/redis/switch-master.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';

/**
 * A real Sentinel refuses PUBLISH on its channels, so a plain redis-server stands in for one here: the follower only
 * subscribes, and the announcements are Sentinel's format. The real Sentinel path runs in the failover test.
 */
function ready(client: Redis): Promise<void> {
  return new Promise<void>((resolve) => (client.status === 'ready' ? resolve() : client.once('ready', () => resolve())));
}

describe('following +switch-master', () => {
  let data: TestRedis;
  let announcer: TestRedis;

  beforeAll(async () => {
    [data, announcer] = await Promise.all([startRedis(), startRedis()]);
  });
  afterAll(async () => {
    await data?.destroy();
    await announcer?.destroy();
  });

  it('keeps a connection already on the announced primary and moves one that is elsewhere, once per announcement', async () => {
    const client = new Redis({ host: '127.0.0.1', port: data.port, retryStrategy: () => 20 });
    const publisher = new Redis(announcer.url);
    const decisions: Array<{ port: number; moved: boolean }> = [];
    let decided: (() => void) | null = null;
    const follower = followSwitchMaster(client, {
      name: 'gwprimary',
      sentinels: [{ host: '127.0.0.1', port: announcer.port }],
      connection: {},
      onAnnounced: (target, moved) => {
        decisions.push({ port: target.port, moved });
        decided?.();
      },
    });
    const announce = async (message: string, decisionsAfter: number): Promise<void> => {
      const reached = new Promise<void>((resolve) => (decided = () => decisions.length >= decisionsAfter && resolve()));
      await publisher.publish(SWITCH_MASTER_CHANNEL, message);
      await reached;
    };
    try {
      await ready(client);
      // The follower's subscription is in place once the announcer counts a subscriber on the channel.
      for (let i = 0; (await publisher.pubsub('NUMSUB', SWITCH_MASTER_CHANNEL))[1] !== 1; i++) {
        if (i > 200) throw new Error('the follower never subscribed');
        await new Promise((r) => setTimeout(r, 10));
      }
      let reconnects = 0;
      client.on('reconnecting', () => reconnects++);
      // Another primary's switch is not even a decision; ours to where the client already is keeps the connection.
      await publisher.publish(SWITCH_MASTER_CHANNEL, 'other 127.0.0.1 1 127.0.0.1 2');
      await announce(`gwprimary 127.0.0.1 1 127.0.0.1 ${data.port}`, 1);
      expect(decisions).toEqual([{ port: data.port, moved: false }]);
      expect(client.status).toBe('ready');
      // Ours to elsewhere: the client must go and ask again (here it reconnects to the same server: it has no sentinels).
      const moved = new Promise<void>((resolve) => client.once('reconnecting', () => resolve()));
      await announce(`gwprimary 127.0.0.1 ${data.port} 127.0.0.1 ${data.port + 1}`, 2);
      expect(decisions[1]).toEqual({ port: data.port + 1, moved: true });
      await moved;
      await ready(client);
      expect(reconnects).toBe(1);
      expect(await client.ping()).toBe('PONG');
    } finally {
      follower.close();
      client.disconnect();
      publisher.disconnect();
    }
  });

  it('reads only well-formed announcements for its own primary', () => {
    expect(switchTarget('gwprimary 10.0.0.1 6379 10.0.0.2 6380', 'gwprimary')).toEqual({ host: '10.0.0.2', port: 6380 });
    expect(switchTarget('gwprimary2 10.0.0.1 6379 10.0.0.2 6380', 'gwprimary')).toBeNull();
    expect(switchTarget('gwprimary 10.0.0.1 6379 10.0.0.2', 'gwprimary')).toBeNull();
    expect(switchTarget('gwprimary 10.0.0.1 6379 10.0.0.2 0', 'gwprimary')).toBeNull();
    expect(switchTarget('gwprimary 10.0.0.1 6379 10.0.0.2 70000', 'gwprimary')).toBeNull();
    expect(switchTarget('gwprimary 10.0.0.1 6379 10.0.0.2 63x', 'gwprimary')).toBeNull();
  });
});
