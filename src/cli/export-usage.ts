import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { readExportConfig, type ExportConfig } from '../config/export-config.js';
import { ConfigError } from '../config/config-error.js';
import { createLogger } from '../observability/logger.js';
import { UsageMetrics } from '../observability/usage-metrics.js';
import { hostForUrl, listen } from '../runtime/gateway-runtime.js';
import { logMigrations, openDurableUsage } from '../runtime/usage-store.js';
import { connectRedis, logConnectionErrors } from '../state/redis/connect.js';
import { RedisExportLease, RedisUsageSource } from '../state/redis/usage-stream-source.js';
import { describePostgresUrl } from '../usage/postgres/connect.js';
import type { CliIo } from './io.js';
import { runUntilSignalled } from './lifecycle.js';

/** `gw export-usage`: move usage records from Redis to PostgreSQL (one active exporter, by lease). */
export async function runExportUsageCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let config: ExportConfig;
  try {
    config = readExportConfig(argv, io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`gw export-usage: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const redis = connectRedis(config.redisUrl, {
    ...(config.redisTlsCa ? { tlsCa: config.redisTlsCa } : {}),
    ...(config.redisPassword !== null ? { password: config.redisPassword } : {}),
  });
  logConnectionErrors(redis, (detail) => logger.error({ detail }, 'redis connection error'));
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = new UsageMetrics(registry);
  const source = new RedisUsageSource(redis);
  const durable = await openDurableUsage(config.usage, {
    source,
    lease: new RedisExportLease(redis, config.usage.exportLeaseMs),
    observer: metrics.observer(logger),
    migrated: logMigrations(logger),
  });
  const admin = createServer((req, res) => {
    if (req.url === '/metrics') {
      void registry.metrics().then((text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(text);
      });
      return;
    }
    const ok = req.url === '/healthz' || req.url === '/readyz';
    res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? { status: 'ok', active: durable?.exporter?.isActive() ?? false } : { error: 'not found' }));
  });
  try {
    await listen(admin, config.adminPort, config.adminHost);
  } catch (error) {
    io.stderr.write(`gw export-usage: ${(error as Error).message}\n`);
    await durable?.close();
    redis.disconnect();
    return 2;
  }
  const adminUrl = `http://${hostForUrl(config.adminHost)}:${(admin.address() as AddressInfo).port}`;
  io.stdout.write(`gw export-usage: exporting to ${describePostgresUrl(config.usage.postgresUrl)}, metrics on ${adminUrl}/metrics\n`);
  logger.info({ postgres: describePostgresUrl(config.usage.postgresUrl), admin: adminUrl }, 'usage exporter started');
  await runUntilSignalled(logger, {
    reload: async () => {},
    stop: async () => {
      await durable?.close();
      admin.close();
      admin.closeAllConnections();
      redis.disconnect();
    },
  });
  return 0;
}
