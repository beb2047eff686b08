#!/usr/bin/env node
// What holding usage records until a replica has them costs a data plane (docs/resilience.md,
// "Redis failover"): a real redis-server primary with one replica on loopback, RedisState of a
// build writing RECORDS usage records, CONCURRENCY at a time (as requests finish side by side),
// with confirmation off (the primary's acknowledgement is enough) and on (WAIT for 1 replica in
// rounds on a connection of its own), and on with the replica stopped (SIGSTOP: no round is ever
// acknowledged, records stay held). Reports recordUsage latency (it runs after the caller's answer
// ended, so it is not caller latency), records/s, this process's CPU per 1,000 records, and how
// long after the last write every record was confirmed.
//
//   npm run build && node bench/usage-confirm-cost.mjs [dist] [records=20000] [concurrency=32]
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const RECORDS = Number(process.argv[3] ?? 20_000);
const CONCURRENCY = Number(process.argv[4] ?? 32);
const { connectRedis } = await import(`${dist}/state/redis/connect.js`);
const { RedisState } = await import(`${dist}/state/redis/redis-state.js`);
const { DEFAULT_USAGE_CONFIRM } = await import(`${dist}/state/redis/usage-confirm.js`);
const { SecretBox } = await import(`${dist}/state/secret-box.js`);

const freePort = () =>
  new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function redisServer(extra = []) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-redis-'));
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no', ...extra], { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise((res) => {
      const c = createServer();
      c.close();
      import('node:net').then(({ connect }) => {
        const sock = connect(port, '127.0.0.1', () => (sock.end(), res(true)));
        sock.on('error', () => res(false));
      });
    });
    if (ok) break;
    await sleep(25);
  }
  return { port, child, stop: () => (child.kill('SIGKILL'), rmSync(dir, { recursive: true, force: true })) };
}

const record = (i) => ({
  request_id: `req_${randomUUID()}`,
  time: new Date().toISOString(),
  company: `company${i % 4}`,
  address: `user${i % 50}@acme.example`,
  endpoint: 'messages',
  model: 'claude-sonnet-4-5',
  provider: 'vendor',
  provider_model: 'claude-sonnet-4-5-20250929',
  credential: 'main',
  input_tokens: 1200,
  output_tokens: 37,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cost_usd: 0.0041,
  status: 200,
  fault: null,
  stream: true,
  duration_ms: 812,
  ttfb_ms: 120,
  outcome: 'complete',
});

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(mode, primary, replica) {
  const url = `redis://127.0.0.1:${primary.port}`;
  const main = connectRedis(url);
  const options = mode === 'off' ? {} : { confirm: { connection: connectRedis(url), options: { ...DEFAULT_USAGE_CONFIRM, replicas: 1 } } };
  const state = new RedisState(main, new SecretBox(randomBytes(32)), options);
  await state.ready();
  await main.flushall();
  if (mode === 'on, replica stopped') replica.child.kill('SIGSTOP');
  const latencies = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RECORDS) {
        const r = record(next++);
        const s = performance.now();
        await state.recordUsage(r);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const heldAtEnd = state.heldRecords();
  let confirmedAfter = null;
  if (mode === 'on') {
    const t1 = performance.now();
    while (state.heldRecords() > 0 && performance.now() - t1 < 30_000) await sleep(5);
    confirmedAfter = performance.now() - t1;
  }
  if (mode === 'on, replica stopped') replica.child.kill('SIGCONT');
  latencies.sort((a, b) => a - b);
  const row = {
    mode,
    records_per_s: Math.round(RECORDS / (wall / 1000)),
    p50_ms: +pct(latencies, 50).toFixed(3),
    p99_ms: +pct(latencies, 99).toFixed(3),
    cpu_ms_per_1000: +(((cpu.user + cpu.system) / 1000 / RECORDS) * 1000).toFixed(1),
    held_at_end: heldAtEnd,
    all_confirmed_ms_after_last_write: confirmedAfter === null ? null : Math.round(confirmedAfter),
  };
  await state.close();
  return row;
}

const primary = await redisServer();
const replica = await redisServer(['--replicaof', '127.0.0.1', String(primary.port)]);
await sleep(1_000);
try {
  const rows = [];
  for (const mode of ['off', 'on', 'off', 'on', 'on, replica stopped']) rows.push(await run(mode, primary, replica));
  console.log(`records ${RECORDS}, concurrency ${CONCURRENCY}, node ${process.version}`);
  console.table(rows);
} finally {
  primary.stop();
  replica.stop();
}
