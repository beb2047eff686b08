// Operator convergence at scale (issue 13, point 4; DESIGN §9's "through the
// operator" budget): how long 1,000 GatewayTokens in 20 namespaces take to
// reach Redis, on a real kube-apiserver + etcd and a real Redis, with the
// built `gw operator`. Not part of `make test`: `make bench-operator` (and
// `make bench`) run it and write bench/results/<date>-operator.{json,md}.
// It asserts only that every token arrived; the numbers are reported.
//
//   npm run build && npx vitest run --config bench/operator/vitest.config.ts
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { generateToken, hashToken } from '../../src/auth/token.js';
import { startKubeApiServer } from '../../test/support/kube-apiserver.js';
import { startOperator, type OperatorProcess } from '../../test/support/operator-process.js';
import { startRedis } from '../../test/support/redis-server.js';
import { create, createNamespace, GROUP, gwObject, installCrds, kubeFor, PLURAL, ready, ROOT, VERSION, type Kube, type Obj } from '../../test/integration/operator/kube-helpers.js';

const NAMESPACES = Number(process.env.GW_BENCH_NAMESPACES ?? 20);
const TOKENS = Number(process.env.GW_BENCH_TOKENS ?? 1000);
const KEY = randomBytes(32).toString('base64');
const CREATE_PARALLEL = 16;
const POLL_MS = 20;
const WAIT_LIMIT_MS = 120_000;

async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await run(items[next++] as T);
    }),
  );
}

/** Milliseconds until every hash has a live record in Redis (bounded). */
async function untilAllLive(redis: Redis, hashes: readonly string[], since: number): Promise<number> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const pipeline = redis.pipeline();
    for (const h of hashes) pipeline.exists(`gw:token:${h}`);
    const results = (await pipeline.exec()) ?? [];
    if (results.every(([error, n]) => error === null && n === 1)) return Date.now() - since;
    if (Date.now() > deadline) throw new Error(`only ${results.filter(([, n]) => n === 1).length} of ${hashes.length} tokens reached Redis within ${WAIT_LIMIT_MS} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Milliseconds until every named token shows Ready=True with our finalizer (the API work after Redis; bounded). */
async function untilAllReady(kube: Kube, namespaces: readonly string[], names: ReadonlySet<string>, since: number): Promise<number> {
  const deadline = Date.now() + WAIT_LIMIT_MS * 3;
  for (;;) {
    let done = 0;
    const missing: string[] = [];
    for (const namespace of namespaces) {
      const list = (await kube.custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL.GatewayToken })) as { items: Obj[] };
      for (const o of list.items) {
        if (!names.has(o.metadata.name)) continue;
        if (ready(o)?.status === 'True' && o.metadata.finalizers?.includes('gw.io/cleanup')) done++;
        else missing.push(`${namespace}/${o.metadata.name} generation ${o.metadata.generation} finalizers ${JSON.stringify(o.metadata.finalizers ?? [])} ready ${JSON.stringify(ready(o) ?? null)}`);
      }
    }
    if (done === names.size) return Date.now() - since;
    if (Date.now() > deadline) throw new Error(`only ${done} of ${names.size} tokens were Ready within ${WAIT_LIMIT_MS * 3} ms; not: ${missing.slice(0, 10).join('; ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

it(`operator convergence: ${TOKENS} tokens in ${NAMESPACES} namespaces`, { timeout: 30 * 60_000 }, async () => {
  const server = await startKubeApiServer();
  const redisServer = await startRedis();
  const redis = new Redis(redisServer.url);
  let operator: OperatorProcess | null = null;
  const operatorArgs = { kubeconfig: server.kubeconfigPath, redisUrl: redisServer.url, encryptionKey: KEY, env: { GW_LOG_LEVEL: 'warn' } };
  try {
    const kube = kubeFor(server);
    await installCrds(kube);
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `bench-${i}`);
    for (const ns of namespaces) await createNamespace(kube, ns);
    const tokens = Array.from({ length: TOKENS }, (_, i) => ({ ns: namespaces[i % NAMESPACES] as string, name: `t-${i}`, hash: hashToken(generateToken()) }));

    // 1. Cold start: everything exists, then the operator starts.
    const createStart = Date.now();
    await inParallel(tokens, CREATE_PARALLEL, async (t) => void (await create(kube, gwObject('GatewayToken', t.ns, t.name, { tokenHash: t.hash }))));
    const createMs = Date.now() - createStart;
    const spawnedAt = Date.now();
    operator = await startOperator({ ...operatorArgs, identity: 'bench-a', args: ['--resync-seconds', '600', '--lease-duration-seconds', '15'] });
    const coldMs = await untilAllLive(
      redis,
      tokens.map((t) => t.hash),
      spawnedAt,
    );

    // 2. A lost Redis: flushed, rebuilt from the generation check.
    await redis.flushall();
    const flushedAt = Date.now();
    const rebuildMs = await untilAllLive(
      redis,
      tokens.map((t) => t.hash),
      flushedAt,
    );

    // The burst starts on a quiet operator: the cold start's finalizers and status done.
    await untilAllReady(kube, namespaces, new Set(tokens.map((t) => t.name)), Date.now());

    // 3. A burst with the operator running: as many new tokens created as fast as the API server takes them.
    const burst = tokens.map((t, i) => ({ ...t, name: `b-${i}`, hash: hashToken(generateToken()) }));
    const counters = async (): Promise<Record<string, number>> => {
      const read = async (name: string, labels?: Record<string, string>): Promise<number> => (await operator?.metric(name, labels)) ?? 0;
      return {
        reconciles: await read('gw_operator_reconciles_total', { result: 'ok' }),
        reconcile_errors: await read('gw_operator_reconciles_total', { result: 'error' }),
        reconcile_seconds: await read('gw_operator_reconcile_duration_seconds_sum'),
        redis_company_writes: await read('gw_operator_redis_writes_total', { operation: 'replace' }),
        status_patches: await read('gw_operator_status_patches_total', { kind: 'GatewayToken' }),
      };
    };
    const before = await counters();
    const burstStart = Date.now();
    await inParallel(burst, CREATE_PARALLEL, async (t) => void (await create(kube, gwObject('GatewayToken', t.ns, t.name, { tokenHash: t.hash }))));
    const burstCreateMs = Date.now() - burstStart;
    const burstMs = await untilAllLive(
      redis,
      burst.map((t) => t.hash),
      burstStart,
    );
    const after = await counters();
    const burstReadyMs = await untilAllReady(kube, namespaces, new Set(burst.map((t) => t.name)), burstStart);
    const burstWork = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, Math.round((v - (before[k] ?? 0)) * 1000) / 1000]));

    const result = {
      date: new Date().toISOString(),
      namespaces: NAMESPACES,
      tokens: TOKENS,
      cold_start_ms: coldMs,
      rebuild_after_flush_ms: rebuildMs,
      burst_total_ms: burstMs,
      burst_api_create_ms: burstCreateMs,
      burst_after_last_create_ms: burstMs - burstCreateMs,
      burst_all_ready_in_status_ms: burstReadyMs,
      initial_api_create_ms: createMs,
      // What the operator did between the burst's first create and the last token in Redis.
      burst_operator_work: burstWork,
    };
    const dir = join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    // bench/run.mjs runs this as its case s14 and passes its --date, so the files match its report's.
    const day = process.env.GW_BENCH_DATE ?? result.date.slice(0, 10);
    writeFileSync(join(dir, `${day}-operator.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(
      join(dir, `${day}-operator.md`),
      [
        `# Operator convergence, ${day}`,
        '',
        `${TOKENS} GatewayTokens in ${NAMESPACES} namespaces; real kube-apiserver + etcd, real Redis, built gw operator, 2-core machine.`,
        '',
        '| what | ms | goal |',
        '|---|---:|---|',
        `| operator start (spawn) to every token in Redis | ${coldMs} | ≤ 2,000 after the informers listed (includes process start and the first list) |`,
        `| Redis flushed to every token back | ${rebuildMs} | ≤ 5,000 |`,
        `| burst: first create to every token in Redis | ${burstMs} | |`,
        `| burst: the API server taking the ${TOKENS} creates | ${burstCreateMs} | (client side, ${CREATE_PARALLEL} in parallel) |`,
        `| burst: last create to every token in Redis | ${burstMs - burstCreateMs} | |`,
        `| burst: first create to every token Ready (finalizer and status written) | ${burstReadyMs} | (API work, after Redis) |`,
        '',
        `Operator work during the burst (until the last token was in Redis): ${Object.entries(burstWork)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}.`,
        '',
      ].join('\n'),
    );
    console.log(JSON.stringify(result));
    expect(result.tokens).toBe(TOKENS);
  } finally {
    await operator?.stop('SIGKILL');
    redis.disconnect();
    await redisServer.destroy();
    await server.stop();
  }
});
