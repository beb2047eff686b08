import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { anyOf, globalTokenAccess, readScopedTokens, scopedTokenAccess, type AdminAccess } from '../admin/admin-access.js';
import { createAdminServer } from '../admin/admin-server.js';
import { ConsoleServer } from '../admin/console/console-server.js';
import { ResourceFile } from '../admin/console/resource-file.js';
import type { ClusterTokenWriter } from '../admin/console/kube-writer.js';
import { MemorySessionStore, RedisSessionStore, type SessionStore } from '../admin/console/sessions.js';
import { packageRoot } from '../config/package-root.js';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { UsageMetrics } from '../observability/usage-metrics.js';
import { FailoverMetrics } from '../observability/failover-metrics.js';
import { SOLE_EXPORTER } from '../usage/export/ports.js';
import { StateUsageReader } from '../usage/state-reader.js';
import { logMigrations, openDurableUsage, type DurableUsage } from './usage-store.js';
import type { RedisClient } from '../state/redis/connect.js';
import { RECORD_VERSION, type UnreadableRecord } from '../state/record-version.js';
import { loadResources } from '../config/load-resources.js';
import type { ServeConfig } from '../config/serve-config.js';
import { ServedModels } from '../models/served-models.js';
import type { Logger } from '../observability/logger.js';
import { GatewayMetrics } from '../observability/metrics.js';
import { credentialHealthEvents, observabilityEvents } from '../observability/pipeline-events.js';
import { CredentialHealthMonitor } from '../credentials/health-monitor.js';
import { httpKeyCheck } from '../upstream/key-check.js';
import { startTelemetry } from '../observability/telemetry.js';
import { Pipeline } from '../pipeline/pipeline.js';
import { RedactionPool } from './redaction-pool.js';
import { UsageExportThread } from './usage-export-thread.js';
import type { RedactorPort } from '../pipeline/ports.js';
import { applyCompany, MemoryRevocations, resourceTruth } from '../reconcile/apply-company.js';
import { desiredState } from '../reconcile/desired-records.js';
import { MemoryState } from '../state/memory.js';
import { SecretBox } from '../state/secret-box.js';
import type { CompanyWriter, GatewayState, TokenDirectory } from '../state/state.js';
import { newGeneration } from './generation-watch.js';
import { fullCollection, IdleReclaimer } from './idle-memory.js';
import { httpModelListFetcher } from '../upstream/model-list.js';

/**
 * What every data plane process shares: state (memory or Redis), the file
 * reconciled into it, the pipeline, metrics and the admin listener. The
 * data-plane adapters (gw serve, gw extproc) add only their own listener.
 */
export interface GatewayRuntime {
  readonly state: GatewayState;
  readonly pipeline: Pipeline;
  readonly metrics: GatewayMetrics;
  readonly adminUrl: string;
  setReady(ready: boolean): void;
  /** The data plane's count of requests in flight: the gauge, and when the process has gone quiet. */
  inFlight(n: number): void;
  reload(): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeDeps {
  readonly logger: Logger;
  readonly state?: GatewayState;
  readonly redactor?: RedactorPort | null;
}

/** Per state, what earlier loads of the file revoked: a reload never makes those hashes live again. */
const fileRevocations = new WeakMap<object, MemoryRevocations>();

/**
 * Apply the file's documents to state through the path the operator takes
 * (applyCompany): the same records, and the same revocations. The file is
 * the whole truth, so a token a later version of it no longer names is
 * revoked, as deleting a GatewayToken revokes it.
 */
export async function applyFile(
  file: string,
  state: CompanyWriter & Pick<TokenDirectory, 'getCompany'>,
  logger: Logger,
  /** What `${VAR}` in the file expands from: the environment the configuration was read from. */
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  const resources = loadResources(readFileSync(file, 'utf8'), env, file);
  let ledger = fileRevocations.get(state);
  if (!ledger) fileRevocations.set(state, (ledger = new MemoryRevocations()));
  const ports = { state, ledger, truth: resourceTruth(resources), mayWrite: () => {} };
  const named = desiredState(resources).companies.map((c) => c.company);
  const held = (await state.listCompanies()).filter((c) => !named.includes(c));
  for (const company of [...named, ...held]) {
    const applied = await applyCompany(company, resources, ports, { force: true });
    for (const c of applied.conditions) {
      if (!c.ready) logger.warn({ kind: c.kind, namespace: c.namespace, name: c.name, reason: c.reason, detail: c.message }, 'resource not ready');
    }
    if (applied.vanished.length > 0) logger.warn({ company, tokens: applied.vanished.map((v) => v.name) }, 'tokens the file no longer names were revoked');
  }
  await state.markLoaded(newGeneration());
}

/**
 * Memory, or Redis when --redis is given. With Redis, the file is applied
 * again whenever the connection comes back: a Redis that restarted empty is
 * repaired without a restart of the gateway (level-triggered, as the
 * operator's resync is).
 */
async function stateFor(
  config: ServeConfig,
  logger: Logger,
  metrics: GatewayMetrics,
  usageMetrics: UsageMetrics,
  failover: FailoverMetrics,
  reapply: () => Promise<void>,
): Promise<{ state: GatewayState; redis: RedisClient | null }> {
  const dropped = droppedLogger(logger, usageMetrics);
  const onSpendOvershoot = (company: string, micros: number, requestId: string): void => {
    failover.overshoot.inc({ company }, micros);
    logger.warn({ company, overshoot_micros: micros, request_id: requestId }, 'a spend settlement passed the limit');
  };
  if (config.redisUrl === null || config.encryptionKey === null) {
    return { state: new MemoryState({ usageMemoryBytes: config.usage.memoryBytes, onUsageDropped: (r) => dropped(r.company, 'memory_bound'), onSpendOvershoot }), redis: null };
  }
  // ioredis is loaded only when Redis is used: one machine with memory state never pays for it.
  const [{ connectRedis, logConnectionErrors, redisTopology }, { RedisState }, { DEFAULT_USAGE_CONFIRM }, { FailoverWatch, FAILOVER_CHECK_MS }] = await Promise.all([
    import('../state/redis/connect.js'),
    import('../state/redis/redis-state.js'),
    import('../state/redis/usage-confirm.js'),
    import('../state/redis/failover-watch.js'),
  ]);
  const connectOptions = {
    ...(config.redisTlsCa ? { tlsCa: config.redisTlsCa } : {}),
    ...(config.redisPassword !== null ? { password: config.redisPassword } : {}),
  };
  const redis = connectRedis(config.redisUrl, connectOptions);
  logConnectionErrors(redis, (detail) => logger.error({ detail }, 'redis connection error'));
  // Usage records get a connection of their own when they wait for replicas: a WAIT there never holds up a token lookup.
  const usageConnection = config.redisConfirm.replicas > 0 ? connectRedis(config.redisUrl, connectOptions) : null;
  if (usageConnection) logConnectionErrors(usageConnection, (detail) => logger.error({ detail }, 'redis connection error (usage records)'));
  // Assigned below: the watch needs the state, the state tells the watch of a redirect it saw first.
  let watch: InstanceType<typeof FailoverWatch> | null = null;
  const state = new RedisState(redis, new SecretBox(config.encryptionKey), {
    onSlotMoved: () => void watch?.check(),
    onBuffered: (n, reason) => n > 0 && logger.warn({ buffered: n, reason }, 'usage records buffered until redis takes them'),
    onDropped: (r) => dropped(r.company, 'retry_buffer'),
    usageBacklogMax: config.usage.backlogMax,
    onSpendOvershoot,
    onUnreadableRecord: unreadableReporter(logger, metrics),
    onGateRefused: () => failover.gateRefused.inc(),
    onGateOpened: () => {
      failover.gateClosed.set(0);
      logger.info('the state was re-applied after the redis failover: serving again');
    },
    ...(usageConnection
      ? {
          confirm: {
            connection: usageConnection,
            options: { ...DEFAULT_USAGE_CONFIRM, replicas: config.redisConfirm.replicas, timeoutMs: config.redisConfirm.timeoutMs },
            events: {
              onRestored: (company: string, count: number) => {
                failover.restored.inc({ company }, count);
                logger.warn({ company, count }, 'usage records lost by a redis failover were written again');
              },
              onReleased: (record: { company: string }) => failover.released.inc({ company: record.company }),
            },
          },
        }
      : {}),
  });
  failover.heldRecords = () => state.heldRecords();
  await state.ready();
  const replicated = redisTopology(config.redisUrl) !== 'single';
  watch = new FailoverWatch(
    redis,
    (seen) => {
      failover.failovers.inc();
      if (replicated) failover.gateClosed.set(1);
      // Fail closed first: nothing may be read from the new primary until the state is known complete again.
      // One instance has no replica to be promoted: a restart keeps its append-only file, and is repaired by the reapply alone.
      if (replicated) state.closeUntilNewerThan(seen.generationBefore);
      state.expediteConfirmation();
      logger.warn({ before: seen.before, after: seen.after }, 'redis failover seen: refusing requests until the state is re-applied, re-writing unconfirmed usage');
      failover.reapplied.inc();
      reapply().catch((error: unknown) => logger.error({ detail: error instanceof Error ? error.message : String(error) }, 'reapply after failover failed'));
    },
    FAILOVER_CHECK_MS,
    replicated ? { onSuspect: () => state.suspend(true), onCleared: () => state.suspend(false) } : null,
  );
  watch.start();
  let connectedOnce = false;
  redis.on('ready', () => {
    if (!connectedOnce) return;
    logger.info('redis is back: applying the configuration again and flushing buffered usage');
    reapply().catch((error: unknown) => logger.error({ detail: error instanceof Error ? error.message : String(error) }, 'reapply after reconnect failed'));
    void state.flush();
  });
  connectedOnce = true;
  return { state, redis };
}

/**
 * A record this build cannot read (a newer operator wrote it) fails the
 * request closed; every one is counted, and said at most every 10 s per
 * record kind and reason, so an upgrade in the wrong order is plain in the
 * log without flooding it.
 */
export function unreadableReporter(logger: Logger, metrics: { unreadableRecords: GatewayMetrics['unreadableRecords'] }): (error: UnreadableRecord) => void {
  const last = new Map<string, number>();
  return (error) => {
    metrics.unreadableRecords.inc({ record: error.record, reason: error.reason });
    const kind = `${error.record}/${error.reason}`;
    const now = Date.now();
    if (now - (last.get(kind) ?? 0) < 10_000) return;
    last.set(kind, now);
    logger.error({ record: error.record, reason: error.reason, version: error.version, supported: RECORD_VERSION, key: error.key }, error.message);
  };
}

/** Every dropped record counted; a warning at most every 10 s per reason, so a flood cannot flood the log. */
function droppedLogger(logger: Logger, metrics: UsageMetrics): (company: string, reason: 'memory_bound' | 'retry_buffer') => void {
  const last = new Map<string, number>();
  return (company, reason) => {
    metrics.dropped.inc({ company, reason });
    const now = Date.now();
    if (now - (last.get(reason) ?? 0) < 10_000) return;
    last.set(reason, now);
    logger.warn({ company, reason }, 'usage records dropped (oldest first); see gw_usage_records_dropped_total');
  };
}

/** Who may read the Usage and Logs API: break-glass token, scoped tokens, Kubernetes RBAC. Null: nobody. */
async function adminAccessFor(config: ServeConfig): Promise<{ access: AdminAccess | null; fileWriters: AdminAccess | null }> {
  const problems: string[] = [];
  const accesses: AdminAccess[] = [];
  if (config.adminToken !== null) accesses.push(globalTokenAccess(config.adminToken));
  if (config.adminAccess.scopedTokensFile !== null) accesses.push(scopedTokenAccess(readScopedTokens(config.adminAccess.scopedTokensFile, problems)));
  if (problems.length > 0) throw new ConfigError(problems);
  // Only admin tokens change the -f file from the console: a Kubernetes grant to read usage is not a grant to write.
  const fileWriters = accesses.length === 0 ? null : anyOf([...accesses]);
  if (config.adminAccess.kubernetes) {
    // The Kubernetes client is heavy: loaded only when asked for.
    const { kubernetesAccess, loadAccessKubeConfig } = await import('../admin/kube-access.js');
    accesses.push(kubernetesAccess(loadAccessKubeConfig(config.adminAccess.kubeconfig)));
  }
  return { access: accesses.length === 0 ? null : anyOf(accesses), fileWriters };
}

/**
 * With Redis, the exporter runs on a thread of its own (usage-export-thread.ts)
 * so that its work never holds the data plane's event loop; this thread keeps
 * only a reader for the Usage and Logs API. With memory state the records live
 * in this thread's memory, so the exporter runs here, on the event loop: one
 * machine without Redis is the small case (see docs/usage.md).
 */
async function durableUsageFor(config: ServeConfig, state: GatewayState, redis: RedisClient | null, metrics: UsageMetrics, logger: Logger): Promise<DurableUsage | null> {
  if (config.usage.postgresUrl === null) return null;
  if (redis !== null && config.redisUrl !== null) {
    const reader = await openDurableUsage(config.usage, null);
    if (reader === null) return null;
    const thread = new UsageExportThread({
      data: { usage: config.usage, redisUrl: config.redisUrl, redisTlsCa: config.redisTlsCa, redisPassword: config.redisPassword },
      metrics,
      logger,
    });
    thread.start();
    return {
      store: reader.store,
      exporter: null,
      async close(drainMs?: number) {
        await thread.stop(drainMs);
        await reader.close();
      },
    };
  }
  const memory = state as MemoryState;
  const durable = await openDurableUsage(config.usage, { source: memory.usageSource(), lease: SOLE_EXPORTER, observer: metrics.observer(logger), migrated: logMigrations(logger) });
  memory.onRecorded = () => durable?.exporter?.nudge();
  return durable;
}

export async function startRuntime(config: ServeConfig, deps: RuntimeDeps): Promise<GatewayRuntime> {
  const { logger } = deps;
  const file = config.file;
  // Without a file (the cluster layout) the operator writes state and this process only reads it.
  const apply = file === null ? async (): Promise<void> => {} : (): Promise<void> => applyFile(file, state, logger, config.resourceEnv);
  const metrics = new GatewayMetrics();
  const usageMetrics = new UsageMetrics(metrics.registry);
  const opened = deps.state ? { state: deps.state, redis: null } : await stateFor(config, logger, metrics, usageMetrics, new FailoverMetrics(metrics.registry), apply);
  const state: GatewayState = opened.state;
  await apply();
  if (file === null) logger.info('no -f file: serving what the operator writes to Redis');
  const health = new CredentialHealthMonitor(state, httpKeyCheck(), credentialHealthEvents(logger, metrics), config.healthChecks);
  const telemetry = await startTelemetry(config.otel, logger);
  const { access, fileWriters } = await adminAccessFor(config);
  const durable = deps.state && !(deps.state instanceof MemoryState) ? null : await durableUsageFor(config, state, opened.redis, usageMetrics, logger);
  const usage = durable?.store ?? new StateUsageReader(state);
  const pool = deps.redactor === undefined ? new RedactionPool({ workers: config.redactionWorkers }) : null;
  const redactor: RedactorPort | null = pool === null ? (deps.redactor ?? null) : timedRedactor(pool, metrics);
  const gc = config.idleCollectAfterMs > 0 ? fullCollection() : null;
  const reclaimer = new IdleReclaimer(
    gc === null
      ? null
      : () => {
          void gc();
          pool?.collectGarbage();
          metrics.idleCollections.inc();
        },
    config.idleCollectAfterMs,
  );
  const pipeline = new Pipeline({
    health,
    state,
    servedModels: new ServedModels(httpModelListFetcher()),
    // Runs only for companies with secret scanning on; off means the body is not even read for it.
    redactor,
    events: observabilityEvents(logger, metrics, telemetry.genAi),
    config: config.pipeline,
    tracer: telemetry.tracer,
  });
  let ready = false;
  // In a cluster (no file, Kubernetes access) token changes go to the API server with each person's own token.
  const cluster =
    access !== null && config.file === null && config.adminAccess.kubernetes
      ? await (async () => {
          const [{ ClusterTokenWriter }, { loadAccessKubeConfig }] = await Promise.all([import('../admin/console/kube-writer.js'), import('../admin/kube-access.js')]);
          return new ClusterTokenWriter(loadAccessKubeConfig(config.adminAccess.kubeconfig));
        })()
      : null;
  const ownerConsole = access === null ? null : consoleFor(config, { access, fileWriters, cluster, state, usage, redis: opened.redis, reload: apply, logger });
  const admin = createAdminServer({ state, usage, registry: metrics.registry, access, ready: () => ready, log: logger, console: ownerConsole });
  await listen(admin, config.adminPort, config.adminHost);
  return {
    state,
    pipeline,
    metrics,
    adminUrl: `http://${hostForUrl(config.adminHost)}:${(admin.address() as AddressInfo).port}`,
    setReady: (value) => {
      ready = value;
    },
    inFlight(n) {
      metrics.inFlight.set(n);
      reclaimer.inFlightChanged(n);
    },
    reload: apply,
    async close() {
      ready = false;
      reclaimer.close();
      health.close();
      await new Promise<void>((resolve) => admin.close(() => resolve()));
      admin.closeAllConnections();
      // The batch in hand is committed and acknowledged before the state goes.
      await durable?.close();
      await state.close();
      await pool?.close();
      // Last: the spans of requests that ended during shutdown are still exported.
      await telemetry.shutdown();
    },
  };
}

/**
 * The owner console beside the admin API, with the same access. Sessions are
 * kept in Redis when there is one (every replica knows them), sealed with the
 * encryption key; writes go to the -f file through the same reload as SIGHUP.
 */
function consoleFor(
  config: ServeConfig,
  deps: {
    access: AdminAccess;
    fileWriters: AdminAccess | null;
    cluster: ClusterTokenWriter | null;
    state: GatewayState;
    usage: StateUsageReader | DurableUsage['store'];
    redis: RedisClient | null;
    reload: () => Promise<void>;
    logger: Logger;
  },
): ConsoleServer {
  const sessions: SessionStore = deps.redis !== null && config.encryptionKey !== null ? new RedisSessionStore(deps.redis, new SecretBox(config.encryptionKey)) : new MemorySessionStore();
  return new ConsoleServer({
    access: deps.access,
    state: deps.state,
    usage: deps.usage,
    sessions,
    assets: join(packageRoot(), 'dist', 'console'),
    file: config.file === null || deps.fileWriters === null ? null : { file: new ResourceFile(config.file, deps.reload, config.resourceEnv), writers: deps.fileWriters },
    cluster: deps.cluster,
    log: deps.logger,
  });
}

function timedRedactor(pool: RedactionPool, metrics: GatewayMetrics): RedactorPort {
  return async (body) => {
    const started = performance.now();
    const where = body.length > pool.inlineMaxBytes ? 'worker' : 'inline';
    try {
      return await pool.redact(body);
    } finally {
      metrics.redactionScanSeconds.observe({ where }, (performance.now() - started) / 1000);
    }
  };
}

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
