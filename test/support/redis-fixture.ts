import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TestConfig } from './gateway-config.js';
import type { GatewayProcess, StartOptions } from './gateway-process.js';
import { startMockProvider, type MockProvider, type MockProviderOptions } from './mock-provider.js';
import { startRedis, type TestRedis } from './redis-server.js';

export interface RedisFixture {
  /** The real redis-server of this describe block. */
  redis(): TestRedis;
  flush(): Promise<void>;
  /** A data-plane process on that Redis; stopped with SIGKILL after the test. */
  gateway(config: TestConfig, env?: Record<string, string>): Promise<GatewayProcess>;
  /** A mock provider; closed after the test. */
  mock(options?: MockProviderOptions): Promise<MockProvider>;
  /** Anything else to close after the test (a scripted provider, say). */
  track(closeable: { close(): Promise<void> }): void;
}

/**
 * Gateway processes sharing one real Redis, for a describe block. Each
 * test's processes go away with it: a gateway left running would re-apply its
 * own file when Redis restarts, and so change what the next test sees.
 */
export function useRedisFixture(start: (file: string, options: StartOptions) => Promise<GatewayProcess>): RedisFixture {
  const encryptionKey = randomBytes(32).toString('base64');
  let redis: TestRedis | undefined;
  const started: GatewayProcess[] = [];
  const mocks: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const g of started.splice(0)) await g.stop('SIGKILL');
    for (const m of mocks.splice(0)) await m.close();
  });
  afterAll(async () => {
    await redis?.destroy();
  });
  const current = (): TestRedis => {
    if (!redis) throw new Error('redis is not started yet (use the fixture inside tests)');
    return redis;
  };
  return {
    redis: current,
    async flush() {
      const raw = new Redis(current().url);
      await raw.flushall();
      raw.disconnect();
    },
    async gateway(config, env = {}) {
      const g = await start(config.file, { args: ['--redis', current().url], env: { GW_ENCRYPTION_KEY: encryptionKey, ...env } });
      started.push(g);
      return g;
    },
    async mock(options = {}) {
      const m = await startMockProvider(options);
      mocks.push(m);
      return m;
    },
    track(closeable) {
      mocks.push(closeable);
    },
  };
}
