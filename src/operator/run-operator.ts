import type { AddressInfo } from 'node:net';
import type { OperatorConfig } from '../config/operator-config.js';
import type { Logger } from '../observability/logger.js';
import { hostForUrl, listen, unreadableReporter } from '../runtime/gateway-runtime.js';
import { connectRedis, logConnectionErrors, type RedisClient } from '../state/redis/connect.js';
import { RedisExportLease, RedisUsageSource } from '../state/redis/usage-stream-source.js';
import { UsageMetrics } from '../observability/usage-metrics.js';
import { logMigrations, openDurableUsage, type DurableUsage } from '../runtime/usage-store.js';
import { RedisState } from '../state/redis/redis-state.js';
import { SecretBox } from '../state/secret-box.js';
import { EventRecorder } from './events.js';
import { createInformers } from './informers.js';
import { kubeClients, kubeErrorLine, loadKubeConfig } from './kube-client.js';
import { namespaceOf, type ClusterResource } from './kube-objects.js';
import { clientNodeWriter, liveTokenLookup } from './kube-writer.js';
import { electionTiming, LeaderElector } from './leader-election.js';
import { kubeLeaseStore } from './lease-store.js';
import { createOperatorAdminServer } from './operator-admin.js';
import { OperatorMetrics } from './operator-metrics.js';
import { Fenced, NotLeader } from './not-leader.js';
import { NamespaceReconciler } from './reconcile-namespace.js';
import { FencedWrite } from '../state/state.js';
import { startTelemetry } from '../observability/telemetry.js';
import { PeriodicResync, rebuildRedis, resyncAll } from './resync.js';
import { configMapLedgerStore, RevocationLedger } from './revocation-ledger.js';
import { GenerationWatch } from '../runtime/generation-watch.js';
import { FailoverMetrics } from '../observability/failover-metrics.js';
import { FailoverWatch } from '../state/redis/failover-watch.js';
import { namespacesNaming } from './snapshot.js';
import { WorkQueue } from './work-queue.js';

export interface OperatorHandle {
  readonly adminUrl: string;
  readonly identity: string;
  isLeader(): boolean;
  /** Resolves once every informer has listed and the election runs. */
  readonly started: Promise<void>;
  /** A full resync now (SIGHUP). */
  reload(): Promise<void>;
  stop(): Promise<void>;
}

const GENERATION_CHECK_MS = 1_000;
/** Events of one namespace within this window make one reconcile (a burst of creates is written in a few batches). */
const RECONCILE_DEBOUNCE_MS = 50;
/** The status pass (finalizers, status, Events) of a namespace waits this long, gathering every reconcile meanwhile. */
const STATUS_DEBOUNCE_MS = 250;
const STATUS_WORKERS = 2;
const HEALTH_CHECK_MS = 2_000;

const errorText = kubeErrorLine;

/**
 * `gw operator`: informers feed a per-namespace work queue; the leader
 * (Lease) reconciles each namespace into Redis and status; a periodic full
 * resync repairs whatever drifted. Returns once the admin listener is up;
 * `started` resolves when the caches are synced.
 */
/** With --postgres, the usage exporter (additive: it shares only the Redis connection and the metrics registry). */
async function startUsageExport(config: OperatorConfig, redis: RedisClient, metrics: OperatorMetrics, logger: Logger): Promise<DurableUsage | null> {
  if (config.usage.postgresUrl === null) return null;
  const source = new RedisUsageSource(redis);
  const lease = new RedisExportLease(redis, config.usage.exportLeaseMs);
  return openDurableUsage(config.usage, { source, lease, observer: new UsageMetrics(metrics.registry).observer(logger), migrated: logMigrations(logger) });
}

export async function runOperator(config: OperatorConfig, deps: { logger: Logger }): Promise<OperatorHandle> {
  const { logger } = deps;
  const metrics = new OperatorMetrics();
  const clients = kubeClients(loadKubeConfig(config.kube));

  const redis = connectRedis(config.redisUrl, { ...(config.redisTlsCa ? { tlsCa: config.redisTlsCa } : {}), ...(config.redisPassword !== null ? { password: config.redisPassword } : {}) });
  logConnectionErrors(redis, (detail) => logger.error({ detail }, 'redis connection error'));
  const state = new RedisState(redis, new SecretBox(config.encryptionKey), { onUnreadableRecord: unreadableReporter(logger, metrics) });
  const usageExport = await startUsageExport(config, redis, metrics, logger);

  const informers = createInformers(clients, config.namespace, logger, metrics);
  const view = informers.view;
  const writer = clientNodeWriter(clients);
  const events = new EventRecorder(writer, config.identity, logger, metrics);
  let elector: LeaderElector | null = null;
  const isLeader = (): boolean => elector?.isLeader() ?? false;
  const epoch = (): number => elector?.epoch() ?? 0;
  const ledger = new RevocationLedger(configMapLedgerStore(clients, config.leaseNamespace));
  const reconciler = new NamespaceReconciler({ view, writer, state, events, metrics, logger, isLeader, epoch, ledger, tokenExists: liveTokenLookup(clients), synced: () => informers.synced() });
  const telemetry = await startTelemetry(config.otel, logger);

  // Fenced while holding the Lease: the Lease's count restarted (deleted Lease) below what Redis has seen.
  // The holder raises its epoch above the fence and rewrites everything; a replica that lost the Lease cannot.
  let raising = false;
  const onFenced = (fence: number): void => {
    if (raising || !elector || !isLeader()) return;
    raising = true;
    const before = epoch();
    void elector
      .raiseEpoch(fence)
      .then((raised) => {
        if (!raised) return;
        logger.warn({ from: before, to: epoch(), fence }, 'Redis holds a newer epoch than the Lease (was the Lease deleted?): raised the epoch and rewriting every company');
        reconciler.forgetWrites();
        void rebuild('epoch raised');
      })
      .catch((error: unknown) => logger.warn({ detail: errorText(error) }, 'could not raise the epoch; the next refused write tries again'))
      .finally(() => {
        raising = false;
      });
  };
  const queue: WorkQueue = new WorkQueue(
    async (namespace) => {
      const end = metrics.reconcileDuration.startTimer();
      const span = telemetry.operations?.start('gw.operator.reconcile', { 'gw.company': namespace });
      try {
        const result = await reconciler.reconcile(namespace);
        metrics.reconciles.inc({ result });
        span?.end({ 'gw.reconcile.result': result });
        if (result === 'ok') statusQueue.addAfter(namespace, STATUS_DEBOUNCE_MS);
      } catch (error) {
        if (error instanceof NotLeader) {
          if (error instanceof Fenced) onFenced(error.current);
          metrics.reconciles.inc({ result: 'skipped' });
          span?.end({ 'gw.reconcile.result': 'skipped' });
          return;
        }
        metrics.reconciles.inc({ result: 'error' });
        span?.end({ 'gw.reconcile.result': 'error' }, error);
        throw error;
      } finally {
        end();
        metrics.queueDepth.set(queue.depth());
      }
    },
    {
      workers: config.workers,
      baseDelayMs: 200,
      maxDelayMs: 30_000,
      onRetry: (namespace, error, attempt, delayMs) => logger.warn({ namespace, attempt, retry_in_ms: delayMs, detail: errorText(error) }, 'reconcile failed; will retry'),
    },
  );
  // The API work of a namespace, after its Redis write and off its path (see NamespaceReconciler).
  const statusQueue: WorkQueue = new WorkQueue(
    async (namespace) => {
      try {
        await reconciler.reportStatus(namespace);
      } catch (error) {
        if (error instanceof NotLeader) return;
        throw error;
      }
    },
    {
      workers: STATUS_WORKERS,
      baseDelayMs: 200,
      maxDelayMs: 30_000,
      onRetry: (namespace, error, attempt, delayMs) => logger.warn({ namespace, attempt, retry_in_ms: delayMs, detail: errorText(error) }, 'status update failed; will retry'),
    },
  );
  const enqueue = (namespace: string, delayMs = 0): void => {
    if (!isLeader()) return;
    // A namespace waiting out a retry backoff goes now: something changed.
    if (delayMs > 0 && queue.failuresOf(namespace) === 0) queue.addAfter(namespace, delayMs);
    else queue.add(namespace);
    metrics.queueDepth.set(queue.depth());
  };

  // Our own finalizer and status patches come back as update events, as does any metadata edit: none of
  // them changes what a reconcile computes. A new generation (spec) or a deletion does.
  const seen = new Map<string, string>();
  const changedForReconcile = (change: 'add' | 'update' | 'delete', obj: ClusterResource): boolean => {
    const id = obj.metadata.uid ?? `${obj.kind}/${namespaceOf(obj)}/${obj.metadata.name}`;
    if (change === 'delete') {
      seen.delete(id);
      return true;
    }
    const mark = `${obj.metadata.generation ?? 0}|${obj.metadata.deletionTimestamp ?? ''}`;
    const before = seen.get(id);
    seen.set(id, mark);
    return change === 'add' || before !== mark;
  };
  const onResource = (change: 'add' | 'update' | 'delete', obj: ClusterResource): void => {
    if (!changedForReconcile(change, obj)) return;
    enqueue(namespaceOf(obj), RECONCILE_DEBOUNCE_MS);
    // A hash belongs to one company: whoever else names it may win or lose it now.
    if (obj.kind === 'GatewayToken') for (const namespace of namespacesNaming(view, obj.spec.tokenHash)) enqueue(namespace, RECONCILE_DEBOUNCE_MS);
  };
  for (const informer of [informers.tokens, informers.credentials, informers.settings]) {
    for (const change of ['add', 'update', 'delete'] as const) informer.on(change, (obj) => onResource(change, obj as ClusterResource));
  }
  const hasResources = (namespace: string): boolean => view.tokens(namespace).length + view.credentials(namespace).length + view.settings(namespace).length > 0;
  for (const change of ['add', 'update', 'delete'] as const) {
    informers.secrets.on(change, (obj) => {
      const namespace = obj.metadata?.namespace ?? 'default';
      if (hasResources(namespace)) enqueue(namespace, RECONCILE_DEBOUNCE_MS);
    });
  }

  const resync = (): Promise<void> => resyncAll({ view, state, reconciler, queue, metrics, logger, namespace: config.namespace });
  const periodic = new PeriodicResync(config.resyncSeconds * 1000, () => isLeader() && informers.synced(), resync, logger);

  // One rebuild at a time; a request while one runs makes it run once more afterwards.
  let rebuilding: Promise<void> | null = null;
  let rebuildAgain = false;
  const rebuild = (why: string): Promise<void> => {
    if (rebuilding) {
      rebuildAgain = true;
      return rebuilding;
    }
    rebuilding = (async () => {
      do {
        rebuildAgain = false;
        const startedAt = Date.now();
        try {
          await ledger.load();
          const done = await rebuildRedis({
            view,
            state,
            ledger,
            isLeader,
            namespace: config.namespace,
            companies: reconciler,
          });
          logger.info({ why, companies: done.companies, tokens: done.tokens, revoked: ledger.all().length, ms: Date.now() - startedAt }, 'redis rebuilt from the cluster');
        } catch (error) {
          if (error instanceof Fenced || error instanceof FencedWrite) onFenced(error.current);
          logger.warn({ why, detail: errorText(error) }, 'redis rebuild failed; the generation check retries it');
        }
        await resync();
      } while (rebuildAgain && isLeader());
    })().finally(() => {
      rebuilding = null;
    });
    return rebuilding;
  };
  // A flushed Redis keeps its connection; only the missing generation mark tells. Checked every second.
  const generationWatch = new GenerationWatch(
    state,
    GENERATION_CHECK_MS,
    () => isLeader() && informers.synced() && redis.status === 'ready',
    async () => {
      logger.warn('redis has no generation mark (its data was lost): rebuilding it now');
      await rebuild('generation mark missing');
    },
    (error) => logger.debug({ detail: errorText(error) }, 'generation check failed'),
  );

  // Replication is asynchronous: a promoted replica may lack tombstones and records the old primary had.
  // The leader rewrites everything from the cluster and the revocation ledger at once; until its new
  // generation mark is in, the data planes refuse requests (RedisState.closeUntilNewerThan).
  const failoverMetrics = new FailoverMetrics(metrics.registry);
  const failoverWatch = new FailoverWatch(redis, (seen) => {
    failoverMetrics.failovers.inc();
    if (!isLeader()) return;
    logger.warn({ before: seen.before, after: seen.after, revocations: ledger.all().length }, 'redis failover seen: rewriting every revocation and company');
    failoverMetrics.reapplied.inc();
    void rebuild('redis failover');
  });

  // Health is learned by the data planes and kept in Redis; look every few seconds, and reconcile a
  // namespace whose credential status says otherwise (status, printer column, Event).
  const healthTimer = setInterval(() => {
    if (!isLeader() || !informers.synced() || redis.status !== 'ready') return;
    void (async () => {
      for (const credential of view.credentials()) {
        const shown = credential.status?.healthy;
        if (shown === undefined) continue;
        const namespace = namespaceOf(credential);
        const health = await state.credentialHealth(namespace, credential.metadata.name);
        if (health.healthy !== shown) enqueue(namespace);
      }
    })().catch((error: unknown) => logger.debug({ detail: errorText(error) }, 'credential health check failed'));
  }, HEALTH_CHECK_MS);
  healthTimer.unref();

  let redisSeenReady = false;
  redis.on('ready', () => {
    // A Redis that comes back may have come back empty: rewrite everything.
    if (redisSeenReady && isLeader()) {
      logger.info('redis is back: rebuilding every company');
      void rebuild('redis reconnected');
    }
    redisSeenReady = true;
  });

  const admin = createOperatorAdminServer({ registry: metrics.registry, synced: () => informers.synced(), role: () => (isLeader() ? 'leader' : 'follower'), identity: config.identity });
  await listen(admin, config.adminPort, config.adminHost);
  const adminUrl = `http://${hostForUrl(config.adminHost)}:${(admin.address() as AddressInfo).port}`;

  let stopping = false;
  const started = (async (): Promise<void> => {
    await informers.start();
    // The ledger must be read before any reconcile; a missing permission is said once per try, and retried.
    for (let attempt = 0; !stopping; attempt++) {
      try {
        await ledger.load();
        break;
      } catch (error) {
        logger.error({ detail: errorText(error), namespace: config.leaseNamespace }, 'cannot read the revocation ledger (ConfigMaps gw-revocations-*); retrying');
        await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * 2 ** attempt)));
      }
    }
    if (stopping) return;
    logger.info({ namespace: config.namespace ?? '(all)', tokens: view.tokens().length, credentials: view.credentials().length, settings: view.settings().length }, 'informers synced');
    const timing = electionTiming(config.leaseDurationSeconds);
    elector = new LeaderElector(
      kubeLeaseStore(clients, config.leaseNamespace, config.leaseName),
      config.identity,
      timing,
      { now: Date.now },
      {
        onStartedLeading: () => {
          metrics.leader.set(1);
          metrics.leaderTransitions.inc({ to: 'leader' });
          logger.info({ identity: config.identity, lease: `${config.leaseNamespace}/${config.leaseName}` }, 'became the leader: reconciling every namespace');
          reconciler.forgetWrites();
          void rebuild('became the leader');
        },
        onStoppedLeading: () => {
          metrics.leader.set(0);
          metrics.leaderTransitions.inc({ to: 'follower' });
          logger.warn({ identity: config.identity }, 'no longer the leader: watching only');
        },
        onError: (error) => logger.warn({ detail: errorText(error) }, 'leader election attempt failed'),
      },
    );
    metrics.leader.set(0);
    elector.start();
    periodic.start();
    generationWatch.start();
    failoverWatch.start();
  })();
  started.catch((error: unknown) => logger.error({ detail: errorText(error) }, 'operator failed to start'));

  let stopped: Promise<void> | null = null;
  return {
    adminUrl,
    identity: config.identity,
    isLeader,
    started,
    reload: resync,
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        periodic.stop();
        generationWatch.stop();
        failoverWatch.stop();
        clearInterval(healthTimer);
        await queue.stop();
        await statusQueue.stop();
        // Hand the Lease back only after the last write: the next leader starts on a quiet Redis.
        await elector?.stop(true);
        await informers.stop();
        await new Promise<void>((resolve) => admin.close(() => resolve()));
        admin.closeAllConnections();
        await usageExport?.close();
        await state.close();
        await telemetry.shutdown();
      })()),
  };
}
