import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { makeTestCerts, type TestCerts } from '../../support/test-certs.js';

const box = new SecretBox(randomBytes(32));

describe('Redis connection variants', () => {
  let withPassword: TestRedis;
  let withTls: TestRedis;
  let certs: TestCerts;

  beforeAll(async () => {
    certs = makeTestCerts();
    withPassword = await startRedis({ password: 'p@ss word/1' });
    withTls = await startRedis({ tls: { certFile: certs.certFile, keyFile: certs.keyFile, caFile: certs.caFile } });
  });
  afterAll(async () => {
    await withPassword?.destroy();
    await withTls?.destroy();
  });

  it('authenticates with the password in the URL and fails closed without it', async () => {
    expect(withPassword.url).toContain(':p%40ss%20word%2F1@');
    const state = new RedisState(connectRedis(withPassword.url), box);
    await state.ready();
    expect(await state.listCompanies()).toEqual([]);
    await state.close();
    const anonymous = new RedisState(connectRedis(withPassword.url.replace(/\/\/[^@]*@/, '//')), box);
    await expect(anonymous.listCompanies()).rejects.toThrow();
    await anonymous.close();
  });

  it('speaks TLS to a rediss:// URL with a private CA, and refuses a server it cannot verify', async () => {
    expect(withTls.url.startsWith('rediss://')).toBe(true);
    const state = new RedisState(connectRedis(withTls.url, { tlsCa: certs.caPem }), box);
    await state.ready();
    expect(await state.findToken('sha256:none')).toBeNull();
    await state.close();
    const client = connectRedis(withTls.url);
    const errors: string[] = [];
    client.on('error', (e: Error) => errors.push(e.message));
    const untrusted = new RedisState(client, box);
    await expect(untrusted.ready(1_500)).rejects.toThrow(/not reachable/);
    expect(errors.some((m) => /certificate/.test(m))).toBe(true);
    await untrusted.close();
  });

  it('opens again a connection ioredis gave up on (a connect attempt cut short ends it for good), but not one closed on purpose', async () => {
    const client = connectRedis(withPassword.url) as Redis;
    client.on('error', () => undefined);
    const state = new RedisState(client, box);
    await state.ready();
    // ioredis's own path to 'end': the next connect attempt fails inside its connector, as when a reconnect is asked
    // for while the sentinels are being asked for the primary.
    const connector = (client as unknown as { connector: { connect: (...args: unknown[]) => Promise<unknown> } }).connector;
    const realConnect = connector.connect.bind(connector);
    connector.connect = () => {
      connector.connect = realConnect;
      return Promise.reject(new Error('Connection is closed.'));
    };
    const ended = new Promise((resolve) => client.once('end', resolve));
    client.disconnect(true);
    await ended;
    const deadline = Date.now() + 10_000;
    while (client.status !== 'ready' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(client.status).toBe('ready');
    expect(await state.listCompanies()).toEqual([]);

    await state.close();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(client.status).toBe('end');
  });
});
