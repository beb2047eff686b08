// The usage exporter of `gw serve --redis --postgres`, on a worker thread of
// its own: reading the Redis streams, parsing records and building COPY text
// costs tens of milliseconds of CPU per thousand records, which on the data
// plane's event loop showed up as tens of milliseconds of added request
// latency. Here it has its own event loop, its own Redis and PostgreSQL
// connections, and tells the main thread only what its metrics and log need.
import { parentPort, workerData } from 'node:worker_threads';
import type { UsageStoreConfig } from '../config/usage-config.js';
import { connectRedis, logConnectionErrors } from '../state/redis/connect.js';
import { RedisExportLease, RedisUsageSource } from '../state/redis/usage-stream-source.js';
import { openDurableUsage } from './usage-store.js';
import type { ExportWorkerData, FromExportWorker, ToExportWorker } from './usage-export-messages.js';

const port = parentPort;
if (port === null) throw new Error('usage-export-worker must run in a worker thread');
const data = workerData as ExportWorkerData;
const post = (message: FromExportWorker): void => port.postMessage(message);
const detail = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const redis = connectRedis(data.redisUrl, {
  ...(data.redisTlsCa !== null ? { tlsCa: data.redisTlsCa } : {}),
  ...(data.redisPassword !== null ? { password: data.redisPassword } : {}),
});
logConnectionErrors(redis, (text) => post({ type: 'log', level: 'error', msg: 'usage exporter: redis connection error', detail: text }));
const source = new RedisUsageSource(redis);
const usage: UsageStoreConfig = data.usage;
const durable = await openDurableUsage(usage, {
  source,
  lease: new RedisExportLease(redis, usage.exportLeaseMs),
  observer: {
    exported: (count, stored) => post({ type: 'exported', count, stored }),
    deadLettered: (company, requestId, reason) => post({ type: 'deadLettered', company, requestId, reason }),
    backlog: (count) => post({ type: 'backlog', count }),
    active: (active) => post({ type: 'active', active }),
    failed: (stage, error) => post({ type: 'failed', stage, detail: detail(error) }),
  },
  migrated: (applied) => post({ type: 'log', level: 'info', msg: 'usage schema migrated', detail: `${applied} applied` }),
});
post({ type: 'started' });

port.on('message', (message: ToExportWorker) => {
  if (message.type !== 'stop') return;
  // The batch in hand is committed and acknowledged, what waits is drained for a while, the lease released.
  void (async () => {
    try {
      await durable?.close(message.drainMs);
    } catch (error) {
      post({ type: 'log', level: 'error', msg: 'usage exporter: stopping failed', detail: detail(error) });
    }
    redis.disconnect();
    post({ type: 'stopped' });
    port.close();
  })();
});
