import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthorizationV1Api, CoordinationV1Api, V1MicroTime } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../../src/auth/token.js';
import { connectRedis } from '../../../src/state/redis/connect.js';
import { RedisState } from '../../../src/state/redis/redis-state.js';
import { SecretBox } from '../../../src/state/secret-box.js';
import { startKubeApiServer, type KubeApiServer } from '../../support/kube-apiserver.js';
import { startOperator, type OperatorProcess } from '../../support/operator-process.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { apply, create, createNamespace, eventually, gwObject, installCrds, kubeFor, manifests, patchSpec, ROOT, waitForReady, type Kube } from './kube-helpers.js';

// Two replicas of the built operator, as a Deployment with replicas: 2 runs
// them, each with the least-privilege ServiceAccount of
// examples/k8s/operator-rbac.yaml (not an admin token).
const START_TIMEOUT_MS = 45 * 60_000;
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const LEASE_SECONDS = 3;
const LEASE = { namespace: 'gw-system', name: 'gw-operator' };

let server: KubeApiServer;
let kube: Kube;
let redis: TestRedis;
let reader: RedisState;
let operatorKubeconfig: string;
const running: OperatorProcess[] = [];

async function replica(identity: string): Promise<OperatorProcess> {
  const p = await startOperator({
    kubeconfig: operatorKubeconfig,
    redisUrl: redis.url,
    encryptionKey: ENCRYPTION_KEY,
    identity,
    args: ['--lease-namespace', LEASE.namespace, '--lease-name', LEASE.name, '--lease-duration-seconds', String(LEASE_SECONDS), '--resync-seconds', '60'],
  });
  running.push(p);
  return p;
}

async function holder(): Promise<string | undefined> {
  const lease = await kube.kc.makeApiClient(CoordinationV1Api).readNamespacedLease(LEASE);
  return lease.spec?.holderIdentity;
}

interface LeaderTerm {
  readonly identity: string;
  readonly start: number;
  readonly end: number;
}

/** When each replica stopped (its process exited): a term still open in its log ends there. */
const ended = new Map<OperatorProcess, number>();

/** The terms a replica logged: from 'became the leader' to 'no longer the leader', or to `endAt` if still open. */
function leadershipTerms(p: OperatorProcess, endAt: number): LeaderTerm[] {
  const terms: LeaderTerm[] = [];
  let start: number | null = null;
  for (const line of p.output) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { time?: string; msg?: string };
    // The logger writes ISO times with milliseconds (pino's isoTime).
    const time = typeof entry.time === 'string' ? Date.parse(entry.time) : NaN;
    if (Number.isNaN(time) || typeof entry.msg !== 'string') continue;
    if (entry.msg.startsWith('became the leader') && start === null) start = time;
    if (entry.msg.startsWith('no longer the leader') && start !== null) {
      terms.push({ identity: p.identity, start, end: time });
      start = null;
    }
  }
  if (start !== null) terms.push({ identity: p.identity, start, end: endAt });
  return terms;
}

/** Every term that began before the one before it (in order of start) had ended. */
function overlappingTerms(terms: readonly LeaderTerm[]): string[] {
  const sorted = [...terms].sort((x, y) => x.start - y.start);
  const out: string[] = [];
  let latest: LeaderTerm | null = null;
  for (const term of sorted) {
    if (latest !== null && term.start < latest.end) out.push(`${term.identity} led from ${term.start} while ${latest.identity} led until ${latest.end}`);
    if (latest === null || term.end > latest.end) latest = term;
  }
  return out;
}

async function leaderGauge(p: OperatorProcess): Promise<number | null> {
  return p.metric('gw_operator_leader');
}

beforeAll(async () => {
  server = await startKubeApiServer();
  kube = kubeFor(server);
  await installCrds(kube);
  for (const doc of manifests(join(ROOT, 'examples', 'k8s', 'operator-rbac.yaml'))) await apply(kube, doc);
  // A service-account token, as the operator's Pod would mount.
  const request = await kube.core.createNamespacedServiceAccountToken({ namespace: 'gw-system', name: 'gw-operator', body: { spec: { audiences: [], expirationSeconds: 3600 } } });
  const token = request.status?.token as string;
  operatorKubeconfig = join(server.dir, 'operator-kubeconfig');
  const admin = JSON.parse(readFileSync(server.kubeconfigPath, 'utf8')) as { users: Array<{ user: { token: string } }> };
  (admin.users[0] as { user: { token: string } }).user.token = token;
  writeFileSync(operatorKubeconfig, JSON.stringify(admin), { mode: 0o600 });
  redis = await startRedis();
  reader = new RedisState(connectRedis(redis.url), SecretBox.fromBase64(ENCRYPTION_KEY));
  await reader.ready();
}, START_TIMEOUT_MS);

afterAll(async () => {
  for (const p of running) await p.stop('SIGKILL');
  await reader?.close();
  await redis?.destroy();
  await server?.stop();
});

describe('two gw operator replicas and one Lease', () => {
  it('the ServiceAccount of operator-rbac.yaml may do what the operator does, and no more than that', async () => {
    const authz = kube.kc.makeApiClient(AuthorizationV1Api);
    const can = async (verb: string, group: string, resource: string, namespace = 'anywhere', subresource?: string, name?: string): Promise<boolean> =>
      (
        await authz.createSubjectAccessReview({
          body: {
            spec: {
              user: 'system:serviceaccount:gw-system:gw-operator',
              groups: ['system:serviceaccounts'],
              resourceAttributes: { verb, group, resource, namespace, ...(subresource ? { subresource } : {}), ...(name ? { name } : {}) },
            },
          },
        })
      ).status?.allowed ?? false;
    expect(await can('watch', 'gw.io', 'gatewaytokens')).toBe(true);
    expect(await can('patch', 'gw.io', 'providercredentials', 'x', 'status')).toBe(true);
    expect(await can('create', '', 'secrets')).toBe(true);
    expect(await can('update', 'coordination.k8s.io', 'leases', 'gw-system', undefined, LEASE.name)).toBe(true);
    expect(await can('update', 'coordination.k8s.io', 'leases', 'gw-system', undefined, 'someone-elses-lease')).toBe(false);
    expect(await can('delete', 'gw.io', 'gatewaytokens')).toBe(false);
    expect(await can('update', 'coordination.k8s.io', 'leases', 'kube-system')).toBe(false);
    expect(await can('update', '', 'secrets')).toBe(false);
  });

  it('judges overlapping terms from the logs (the check itself can fail)', () => {
    const term = (identity: string, start: number, end: number): LeaderTerm => ({ identity, start, end });
    expect(overlappingTerms([term('a', 0, 100), term('b', 100, 200)])).toEqual([]);
    expect(overlappingTerms([term('a', 0, 100), term('b', 99, 200)])).toEqual(['b led from 99 while a led until 100']);
    expect(overlappingTerms([term('b', 150, 160), term('a', 0, 1_000), term('c', 2_000, 3_000)])).toEqual(['b led from 150 while a led until 1000']);
  });

  it('only the leader writes; killing it hands over to the other within the lease duration; a graceful stop hands the Lease back', { timeout: 120_000 }, async () => {
    const a = await replica('replica-a');
    await eventually('replica-a leads', async () => (await leaderGauge(a)) === 1);
    expect(await holder()).toBe('replica-a');
    const b = await replica('replica-b');
    expect((await b.readyz()).role).toBe('follower');

    const ns = 'leader-test';
    await createNamespace(kube, ns);
    const first = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'first', { tokenHash: hashToken(first) }));
    await eventually('first token live', async () => (await reader.findToken(hashToken(first)))?.company === ns);
    await waitForReady(kube, 'GatewayToken', ns, 'first', { status: 'True' });
    expect(await a.metric('gw_operator_redis_writes_total', { operation: 'replace' })).toBeGreaterThan(0);
    expect(await a.metric('gw_operator_status_patches_total', { kind: 'GatewayToken' })).toBeGreaterThan(0);
    // The follower saw the same events and wrote nothing.
    expect((await b.metric('gw_operator_redis_writes_total', { operation: 'replace' })) ?? 0).toBe(0);
    expect((await b.metric('gw_operator_status_patches_total', { kind: 'GatewayToken' })) ?? 0).toBe(0);
    expect((await b.metric('gw_operator_reconciles_total', { result: 'ok' })) ?? 0).toBe(0);

    // A crash: no chance to hand the Lease back.
    const killedAt = Date.now();
    await a.stop('SIGKILL');
    ended.set(a, Date.now());
    await eventually('replica-b leads', async () => (await leaderGauge(b)) === 1, LEASE_SECONDS * 1000 * 2 + 5_000, 50);
    console.log(`leader election: takeover ${Date.now() - killedAt} ms after SIGKILL (lease ${LEASE_SECONDS} s)`);
    expect(await holder()).toBe('replica-b');

    // The new leader reconciles: a revocation goes through it.
    await patchSpec(kube, 'GatewayToken', ns, 'first', { revoked: true });
    await eventually('revoked by replica-b', async () => (await reader.findToken(hashToken(first))) === null);
    await waitForReady(kube, 'GatewayToken', ns, 'first', { status: 'True', reason: 'Revoked' });
    expect(await b.metric('gw_operator_redis_writes_total', { operation: 'replace' })).toBeGreaterThan(0);

    // A graceful stop releases the Lease: the follower takes over at its next retry.
    const c = await replica('replica-c');
    expect((await c.readyz()).role).toBe('follower');
    await b.stop('SIGTERM');
    ended.set(b, Date.now());
    expect(await holder()).not.toBe('replica-b');
    await eventually('replica-c leads', async () => (await leaderGauge(c)) === 1, LEASE_SECONDS * 1000 * 2 + 5_000, 50);
    const second = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'second', { tokenHash: hashToken(second) }));
    await eventually('second token live via replica-c', async () => (await reader.findToken(hashToken(second)))?.company === ns);

    // Never two leaders at once, judged from each replica's own log of its terms (ms
    // timestamps, one host clock), so an overlap of any length is seen, not only one a poll hits.
    // Each of them led (its gauge said so above); its log lines reach us up to 100 ms later (the logger batches them).
    await eventually('every replica that led has logged its term', async () => [a, b, c].every((p) => leadershipTerms(p, Date.now()).length > 0));
    const terms = [a, b, c].flatMap((p) => leadershipTerms(p, ended.get(p) ?? Date.now()));
    expect(terms.map((t) => t.identity).sort()).toEqual(['replica-a', 'replica-b', 'replica-c']);
    expect(overlappingTerms(terms)).toEqual([]);
  });

  it('a deleted Lease restarts its transition count at 0: the leader raises its epoch above the fence in Redis and keeps writing', { timeout: 120_000 }, async () => {
    for (const p of running.splice(0)) await p.stop('SIGKILL');
    const coordination = kube.kc.makeApiClient(CoordinationV1Api);
    // A Lease as a long-lived cluster has it: many terms, the last holder gone.
    await coordination.deleteNamespacedLease(LEASE).catch(() => undefined);
    const long = new Date(Date.now() - 60_000);
    await coordination.createNamespacedLease({
      namespace: LEASE.namespace,
      body: {
        metadata: { name: LEASE.name, namespace: LEASE.namespace },
        spec: { holderIdentity: 'gone', leaseDurationSeconds: 1, leaseTransitions: 41, acquireTime: new V1MicroTime(long), renewTime: new V1MicroTime(long) },
      },
    });
    const d = await replica('replica-d');
    await eventually('replica-d leads', async () => (await leaderGauge(d)) === 1, 20_000, 50);
    const ns = 'lease-deleted';
    await createNamespace(kube, ns);
    const before = generateToken();
    await create(kube, gwObject('GatewayToken', ns, 'before', { tokenHash: hashToken(before) }));
    await eventually('token live', async () => (await reader.findToken(hashToken(before)))?.company === ns);
    const raw = new Redis(redis.url);
    try {
      expect(Number(await raw.get(`gw:{${ns}}:fence`))).toBe(42);

      // Deleted (by hand, or by a namespace cleanup): the leader's next renewal creates it again at 0.
      await coordination.deleteNamespacedLease(LEASE);
      await eventually('Lease recreated by the leader', async () => (await holder().catch(() => undefined)) === 'replica-d', 20_000, 50);
      const after = generateToken();
      await create(kube, gwObject('GatewayToken', ns, 'after', { tokenHash: hashToken(after) }));
      await eventually('a new token still reaches Redis', async () => (await reader.findToken(hashToken(after)))?.company === ns, 30_000);
      const lease = await coordination.readNamespacedLease(LEASE);
      expect(lease.spec?.leaseTransitions ?? 0).toBeGreaterThan(42);
      expect(Number(await raw.get(`gw:{${ns}}:fence`))).toBeGreaterThan(42);
      // The log line is written asynchronously: it may arrive a moment after the write it announced.
      await eventually('the raise is logged', () => d.output.some((l) => l.includes('raised the epoch')));
      // A revocation goes through the raised epoch too.
      await patchSpec(kube, 'GatewayToken', ns, 'before', { revoked: true });
      await eventually('revoked', async () => (await reader.findToken(hashToken(before))) === null);
    } finally {
      raw.disconnect();
    }
  });
});
