#!/usr/bin/env node
// The performance benchmark of DESIGN §9 (`make bench`; not part of `make test`).
//
// Starts a fast mock provider, the systems under test (gw serve with memory
// state, with Redis state, with secret scanning; Portkey's gateway as the
// peer; gw extproc and a bare grpc-js floor), drives each case from a separate
// load-generator process, interleaved A B A B over several rounds after a
// warm-up, samples CPU and RSS of the system under test from /proc, profiles
// gw serve under load, and writes bench/results/<date>.md and .json.
//
//   npm run build && node bench/run.mjs [--rounds 3] [--quick] [--only s1,s2,...] [--no-peer-install]
//                                       [--gw-dist DIR] [--ab DIR] [--date YYYY-MM-DD] [--deadline-minutes 14]
//
// Everything listens on 127.0.0.1 only (checked from /proc/net before the
// measurements start). Every loop is bounded; every child process is stopped
// at the end, and the whole run stops itself after a hard deadline.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { cpus, homedir, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { summarizeProfile } from './profile-summary.mjs';
import { writeReport } from './report.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = join(ROOT, 'bench');
const RESULTS = join(BENCH, 'results');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const QUICK = flag('quick');
const ROUNDS = Number(option('rounds', QUICK ? '1' : '4'));
const FEWER_ROUNDS = Math.max(1, Math.min(ROUNDS, 3));
const ONLY = option('only', null)?.split(',') ?? null;
const SCALE = QUICK ? 0.5 : 1;
const DATE = option('date', new Date().toISOString().slice(0, 10));
const HARD_DEADLINE_MS = Number(option('deadline-minutes', '14')) * 60_000;
const CACHE = process.env.MODEL_GATEWAY_CACHE ?? join(homedir(), '.cache', 'model-gateway');
const PEER_DIR = join(CACHE, 'bench-peers', 'portkey');
const PORTKEY_VERSION = '1.15.2';
const HONO_NODE_SERVER = '1.13.8';
// --gw-dist DIR benchmarks another build of gw (e.g. a patched copy) against the same harness.
const GW_DIST = resolve(option('gw-dist', join(ROOT, 'dist')));
const GW_BIN = join(GW_DIST, 'cli', 'main.js');
// --ab DIR adds a second gw serve (memory state) built from DIR, as case "gw-before", to the
// same interleaved rounds: a before/after comparison that shares every round's noise.
const AB_DIST = option('ab', null) ? resolve(option('ab')) : null;
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const startedAt = Date.now();
const log = (...parts) => process.stderr.write(`[bench ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(3)}s] ${parts.join(' ')}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const runs = (name) => ONLY === null || ONLY.includes(name);

if (!existsSync(GW_BIN)) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first (make bench does)\n');
  process.exit(2);
}

// ------------------------------------------------------------- placement --
// Two cores: the system under test gets one to itself; the load generator, the
// mock provider, Redis and this orchestrator share the other.
const haveTaskset = spawnSync('taskset', ['-V']).status === 0;
const cpuCount = cpus().length;
const PINNED = haveTaskset && cpuCount >= 2;
const SUT_CPU = String(cpuCount - 1);
const DRIVER_CPU = '0';
if (PINNED) spawnSync('taskset', ['-a', '-p', '-c', DRIVER_CPU, String(process.pid)], { stdio: 'ignore' });

const work = mkdtempSync(join(tmpdir(), 'gw-bench-'));
const children = new Set();

function spawnOn(cpu, command, args, options = {}) {
  const [cmd, list] = PINNED ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
  const child = spawn(cmd, list, { cwd: ROOT, ...options });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stopChild(child, signal = 'SIGTERM', waitMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  if ((await Promise.race([exited.then(() => 'exited'), sleep(waitMs).then(() => 'timeout')])) === 'timeout') {
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

function killAll() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
setTimeout(() => {
  log(`hard deadline of ${HARD_DEADLINE_MS / 60_000} minutes reached; stopping everything`);
  killAll();
  process.exit(3);
}, HARD_DEADLINE_MS).unref();

// ------------------------------------------------------------------ /proc --
function cpuTicks(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}
function memory(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Nanoseconds every thread of the process spent on a CPU, and waiting for one while runnable (schedstat). */
function schedstat(pid) {
  let run = 0;
  let wait = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const [a, b] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ');
        run += Number(a);
        wait += Number(b);
      } catch {
        /* thread gone */
      }
    }
  } catch {
    return null;
  }
  return { run, wait };
}

/** Samples CPU time, run-queue wait and RSS of some processes while a run goes on. */
function sampler(pids) {
  const start = Object.fromEntries(pids.map((p) => [p, cpuTicks(p)]));
  const sched0 = Object.fromEntries(pids.map((p) => [p, schedstat(p)]));
  const peak = Object.fromEntries(pids.map((p) => [p, memory(p)?.rssMB ?? 0]));
  const first = Object.fromEntries(pids.map((p) => [p, memory(p)?.rssMB ?? null]));
  const t0 = performance.now();
  const timer = setInterval(() => {
    for (const p of pids) {
      const m = memory(p);
      if (m && m.rssMB > peak[p]) peak[p] = m.rssMB;
    }
  }, 100);
  return () => {
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    // In the order given: the system under test first, then the mock, then Redis.
    const out = [];
    for (const p of pids) {
      const end = cpuTicks(p);
      const m = memory(p);
      const cpuMs = start[p] === null || end === null ? null : ((end - start[p]) * 1000) / CLK_TCK;
      const s1 = schedstat(p);
      const s0 = sched0[p];
      // Run-queue wait: time the process was ready to run but another task had the CPU (other load on the machine).
      const waitMs = s0 && s1 ? (s1.wait - s0.wait) / 1e6 : null;
      const onCpuMs = s0 && s1 ? (s1.run - s0.run) / 1e6 : null;
      out.push({ pid: p, cpuMs, onCpuMs, waitMs, waitPercent: waitMs === null ? null : waitMs / 10 / seconds, cpuPercent: cpuMs === null ? null : cpuMs / 10 / seconds, rssStartMB: first[p], rssPeakMB: Math.max(peak[p], m?.rssMB ?? 0), rssEndMB: m?.rssMB ?? null, hwmMB: m?.hwmMB ?? null });
    }
    return out;
  };
}

/** Listening TCP sockets of these processes, with their local addresses (from /proc/net). */
function listeningSockets(pids) {
  const inodes = new Map();
  for (const pid of pids) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.set(m[1], pid);
      } catch {
        /* fd closed meanwhile */
      }
    }
  }
  const found = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines = [];
    try {
      lines = readFileSync(file, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== '0A') continue; // LISTEN
      const pid = inodes.get(f[9]);
      if (pid === undefined) continue;
      const [hex, portHex] = f[1].split(':');
      const port = parseInt(portHex, 16);
      let address;
      if (hex.length === 8) address = [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
      else address = hex === '00000000000000000000000001000000' ? '::1' : hex === '00000000000000000000000000000000' ? '::' : `v6:${hex}`;
      found.push({ pid, address, port, loopback: address === '127.0.0.1' || address === '::1' });
    }
  }
  return found;
}

// ----------------------------------------------------------------- helpers --
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function waitForPort(port, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolveWait, reject) => {
    const attempt = () => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolveWait();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** First stdout line that parses as JSON with a `listening` field. */
function listeningLine(child, name, timeoutMs = 20_000) {
  return new Promise((resolveLine, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (const line of buffered.split('\n')) {
        try {
          const parsed = JSON.parse(line);
          if (parsed.listening) {
            clearTimeout(timer);
            resolveLine(parsed.listening);
          }
        } catch {
          /* not yet a full line */
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
  });
}

async function waitForLogLine(file, prefix, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${basename(file)}: process exited (${child.exitCode}):\n${readFileSync(file, 'utf8').slice(-2000)}`);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const line = text.split('\n').find((l) => l.startsWith(prefix));
    if (line) return line;
    await sleep(50);
  }
  throw new Error(`${basename(file)}: no "${prefix}" line within ${timeoutMs} ms`);
}

async function getJson(url, init) {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

// ------------------------------------------------------------- the parts --
async function startMock() {
  const child = spawnOn(DRIVER_CPU, process.execPath, [join(BENCH, 'mock-provider.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningLine(child, 'mock provider');
  return {
    url,
    pid: child.pid,
    child,
    configure: (config) => getJson(`${url}/__bench/config`, { method: 'POST', body: JSON.stringify(config) }),
    stats: async () => (await getJson(`${url}/__bench/stats`)).body,
  };
}

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const port = await freePort();
  const dir = mkdtempSync(join(work, 'redis-'));
  // As test/support/redis-server.ts, but with the AOF fsynced every second (Redis's
  // recommended durable setting) instead of on every write, as a deployment would run it.
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--protected-mode', 'no', '--loglevel', 'warning'];
  const child = spawnOn(DRIVER_CPU, 'redis-server', args, { stdio: 'ignore', cwd: dir });
  await waitForPort(port);
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid, child, args };
}

const { generateToken, hashToken } = await import(join(ROOT, 'dist', 'auth', 'token.js'));

function writeGatewayFile(name, mockUrl, { secretScanning }) {
  const token = generateToken();
  const docs = [
    {
      apiVersion: 'gw.io/v1alpha1',
      kind: 'GatewaySettings',
      metadata: { name: 'settings', namespace: 'acme' },
      spec: {
        tokenDomain: 'acme.example',
        repositoryAttribution: true,
        endUserRecording: false,
        secretScanning,
        callerConcurrency: { default: 10_000, queueWaitSeconds: 5 },
        // A limit far above what the run spends: admission and settlement still run on every request.
        spendLimits: { timeZone: 'UTC', company: [{ window: 'monthly', usd: 1_000_000_000 }] },
      },
    },
    { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'bench', namespace: 'acme' }, spec: { displayName: 'bench', tokenHash: hashToken(token) } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vendor-key', namespace: 'acme' }, stringData: { key: 'sk-ant-api03-bench-vendor-key-not-a-real-key' } },
    {
      apiVersion: 'gw.io/v1alpha1',
      kind: 'ProviderCredential',
      metadata: { name: 'vendor-main', namespace: 'acme' },
      spec: { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'vendor-key', key: 'key' }, baseUrl: mockUrl, maxConcurrency: 10_000 },
    },
  ];
  const file = join(work, `${name}.yaml`);
  writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  return { file, token };
}

async function startGw(name, command, file, { redisUrl = null, extraArgs = [], nodeArgs = [], bin = GW_BIN } = {}) {
  const port = await freePort();
  const adminPort = await freePort();
  const logFile = join(work, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const env = { ...process.env, GW_LOG_LEVEL: process.env.GW_LOG_LEVEL ?? 'info' };
  delete env.GW_ADMIN_TOKEN;
  const args = [...nodeArgs, bin, command, '-f', file, '--host', '127.0.0.1', '--port', String(port), '--admin-host', '127.0.0.1', '--admin-port', String(adminPort), '--shutdown-grace-ms', '3000', ...extraArgs];
  if (redisUrl) {
    args.push('--redis', redisUrl);
    env.GW_ENCRYPTION_KEY = randomBytes(32).toString('base64');
  }
  const child = spawnOn(SUT_CPU, process.execPath, args, { stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  await waitForLogLine(logFile, `gw ${command}: listening`, child);
  return { name, url: `http://127.0.0.1:${port}`, target: `127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${adminPort}`, port, pid: child.pid, child, logFile };
}

function peerInstalled() {
  const start = join(PEER_DIR, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  try {
    const pkg = JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', '@portkey-ai', 'gateway', 'package.json'), 'utf8'));
    const hono = JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', '@hono', 'node-server', 'package.json'), 'utf8'));
    if (pkg.version === PORTKEY_VERSION && hono.version === HONO_NODE_SERVER && existsSync(start)) return start;
  } catch {
    /* not installed */
  }
  return null;
}

/** Portkey's gateway, installed outside the repository with npm (pinned, with the node-server override its streaming needs). */
function ensurePeer() {
  const ready = peerInstalled();
  if (ready || flag('no-peer-install')) return ready;
  log(`installing @portkey-ai/gateway ${PORTKEY_VERSION} into ${PEER_DIR}`);
  mkdirSync(PEER_DIR, { recursive: true });
  const manifest = {
    name: 'bench-peer-portkey',
    private: true,
    description: 'Peer gateway for the model-gateway benchmark (bench/run.mjs); not part of the project.',
    dependencies: { '@portkey-ai/gateway': PORTKEY_VERSION },
    overrides: { '@hono/node-server': HONO_NODE_SERVER },
  };
  writeFileSync(join(PEER_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  // --ignore-scripts: the package's only install script is patch-package, and it ships no patches.
  const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: PEER_DIR, stdio: 'inherit', timeout: 300_000 });
  if (npm.status !== 0) log('npm install of the peer failed; the Portkey cases are skipped');
  return peerInstalled();
}

async function startPortkey(startScript) {
  const port = await freePort();
  const logFile = join(work, 'portkey.log');
  const fd = openSync(logFile, 'a');
  // The start script binds every interface; the preload pins its listen() to 127.0.0.1.
  const child = spawnOn(SUT_CPU, process.execPath, ['--import', join(BENCH, 'peer-loopback.mjs'), startScript, `--port=${port}`, '--headless'], {
    stdio: ['ignore', fd, fd],
    cwd: PEER_DIR,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  closeSync(fd);
  await waitForPort(port);
  await waitForLogLine(logFile, '', child, 1000).catch(() => {});
  return { name: 'portkey', url: `http://127.0.0.1:${port}`, port, pid: child.pid, child, logFile };
}

async function startNodeProxy(upstream) {
  const child = spawnOn(SUT_CPU, process.execPath, [join(BENCH, 'node-proxy.mjs'), '--upstream', upstream, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningLine(child, 'node proxy');
  return { name: 'node-proxy', url, pid: child.pid, child };
}

async function startFloor() {
  const child = spawnOn(SUT_CPU, process.execPath, [join(BENCH, 'extproc-floor.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const target = await listeningLine(child, 'ext_proc floor');
  return { name: 'extproc-floor', target, pid: child.pid, child };
}

// --------------------------------------------------------------- requests --
const SDK_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
  'user-agent': 'claude-cli/2.0.14 (external, cli)',
  'x-app': 'cli',
  'x-stainless-lang': 'js',
  'x-stainless-package-version': '0.60.0',
  'x-stainless-os': 'Linux',
  'x-stainless-arch': 'x64',
  'x-stainless-runtime': 'node',
  'x-stainless-runtime-version': 'v20.18.1',
  'x-stainless-retry-count': '0',
  'x-stainless-timeout': '600',
  'anthropic-dangerous-direct-browser-access': 'true',
};

const PROSE =
  'You are an interactive CLI tool that helps users with software engineering tasks. Use the instructions below and the tools available to you to assist the user. ' +
  'When you reference code, include the file path and line number. Keep answers short and direct; do not add preamble. Prefer editing existing files to creating new ones. ';
const CODE =
  'export async function loadOrders(client: Client, since: Date): Promise<Order[]> {\n  const rows = await client.query(`select * from orders where created_at > $1 order by id`, [since]);\n  return rows.map((row) => ({ id: row.id, total: Number(row.total), customer: row.customer_id }));\n}\n';

/** A Claude Code-like request body of about `bytes` bytes (system prompt, a conversation, code). */
function requestBody(bytes, stream) {
  const system = [{ type: 'text', text: PROSE.repeat(Math.max(1, Math.round((bytes * 0.35) / PROSE.length))) }];
  const code = CODE.repeat(Math.max(1, Math.round((bytes * 0.5) / CODE.length)));
  return JSON.stringify({
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 4096,
    stream,
    system,
    metadata: { user_id: 'user_4f1c0b3e_account__session_0d9e6c1a-5b7f-4a2e-9c3d-1e2f3a4b5c6d' },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Why does loadOrders return totals as strings on the staging database? Here is the file:\n\n' + code }] },
      { role: 'assistant', content: [{ type: 'text', text: 'The driver returns NUMERIC columns as strings; the mapping converts them with Number().' }] },
      { role: 'user', content: [{ type: 'text', text: 'Then why do I still see strings in the API response?' }] },
    ],
  });
}

// ------------------------------------------------------------- load runs --
let jobSeq = 0;
async function runLoad(job, samplePids) {
  const file = join(work, `job-${++jobSeq}.json`);
  writeFileSync(file, JSON.stringify(job));
  const stop = sampler(samplePids);
  const child = spawnOn(DRIVER_CPU, process.execPath, [join(BENCH, job.kind === 'extproc' ? 'extproc-load.mjs' : 'load.mjs'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const limit = job.durationMs + 30_000;
  const code = await Promise.race([new Promise((r) => child.once('exit', r)), sleep(limit).then(() => 'timeout')]);
  const procs = stop();
  if (code === 'timeout') await stopChild(child, 'SIGKILL');
  const line = out.trim().split('\n').pop();
  let result;
  try {
    result = JSON.parse(line);
  } catch {
    result = { failed: true, code, stderr: err.slice(-2000) };
  }
  return { ...result, procs };
}

function loadJob(target, scenario, extra = {}) {
  return {
    kind: 'http',
    url: target.url,
    path: '/v1/messages',
    headers: { ...SDK_HEADERS, ...target.headers },
    body: scenario.body,
    mode: scenario.mode,
    rate: scenario.rate,
    concurrency: scenario.concurrency,
    connections: scenario.connections,
    stream: scenario.stream,
    expectDeltas: scenario.stream ? scenario.mock.events : undefined,
    eventTiming: scenario.eventTiming,
    durationMs: Math.round(scenario.durationMs * SCALE),
    warmupMs: Math.round((scenario.warmupMs ?? 500) * SCALE),
    perWorker: scenario.perWorker,
    rampMs: scenario.rampMs,
    drainMs: scenario.drainMs,
    ...extra,
  };
}

/** Prewarm each case, then R rounds of every case, alternating the order each round. */
async function interleaved(scenario, cases, rounds_ = ROUNDS) {
  await mock.configure(scenario.mock);
  const rounds = [];
  for (const c of cases) {
    log(`${scenario.id}: warm-up ${c.name}`);
    await runLoad(loadJob(c, scenario, { durationMs: Math.round((scenario.prewarmMs ?? 2000) * SCALE), warmupMs: 0 }), []);
  }
  for (let r = 0; r < rounds_; r++) {
    const order = r % 2 === 0 ? cases : [...cases].reverse();
    const round = {};
    for (const c of order) {
      const result = await runLoad(loadJob(c, scenario), c.pids);
      round[c.name] = result;
      log(`${scenario.id}: round ${r + 1}/${rounds_} ${c.name.padEnd(12)} ${brief(result)}`);
    }
    rounds.push(round);
  }
  return rounds;
}

function brief(r) {
  if (r.failed) return `FAILED (${r.code}) ${r.stderr ?? ''}`;
  const f = (v) => (v === undefined ? '-' : v.toFixed(3));
  const parts = [r.started !== undefined ? `ok=${r.counted}/${r.started}` : `streams=${r.streams}`, `rate=${(r.perSecond ?? r.streamsPerSecond)?.toFixed(0)}/s`];
  const sut = r.procs?.[0] ?? null;
  if (sut) parts.push(`cpu=${sut.cpuPercent?.toFixed(0)}% rq-wait=${sut.waitPercent?.toFixed(0)}%`);
  if (r.latencyMs?.n) parts.push(`lat p50=${f(r.latencyMs.p50)} p99=${f(r.latencyMs.p99)}`);
  if (r.ttfbMs?.n && r.eventDelayMs?.n) parts.push(`ttfb p50=${f(r.ttfbMs.p50)} ev p50=${f(r.eventDelayMs.p50)} p99=${f(r.eventDelayMs.p99)}`);
  if (r.chunkMs?.n) parts.push(`chunk p50=${f(r.chunkMs.p50)} p99=${f(r.chunkMs.p99)}`);
  if (r.badStreams) parts.push(`bad=${r.badStreams}`);
  if (r.errors && Object.keys(r.errors).length) parts.push(`errors=${JSON.stringify(r.errors)}`);
  const statuses = r.statuses && Object.keys(r.statuses).filter((s) => s !== '200');
  if (statuses?.length) parts.push(`statuses=${JSON.stringify(r.statuses)}`);
  return parts.join(' ');
}

// ------------------------------------------------------------------ start --
log(`placement: ${PINNED ? `system under test on CPU ${SUT_CPU}; load generator, mock, Redis and orchestrator on CPU ${DRIVER_CPU}` : 'unpinned (taskset or a second CPU missing)'}`);
const environment = {
  date: DATE,
  startedAt: new Date(startedAt).toISOString(),
  node: process.version,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  cpus: cpuCount,
  memoryGB: totalmem() / 2 ** 30,
  loadAverageStart: loadavg(),
  pinned: PINNED,
  sutCpu: PINNED ? SUT_CPU : null,
  driverCpu: PINNED ? DRIVER_CPU : null,
  rounds: ROUNDS,
  quick: QUICK,
  git: (() => {
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '';
    return { head, dirty };
  })(),
};

const mock = await startMock();
log(`mock provider on ${mock.url} (pid ${mock.pid})`);
const redis = runs('s1') || runs('s2') || runs('s3') ? await startRedis() : null;
if (redis) log(`redis-server on ${redis.url} (pid ${redis.pid})`);

const memFile = writeGatewayFile('gw-memory', mock.url, { secretScanning: false });
const scanFile = writeGatewayFile('gw-scan', mock.url, { secretScanning: true });
const sut = {};
sut.proxy = await startNodeProxy(mock.url);
sut.memory = await startGw('gw-memory', 'serve', memFile.file);
if (AB_DIST) sut.before = await startGw('gw-before', 'serve', memFile.file, { bin: join(AB_DIST, 'cli', 'main.js') });
if (redis) sut.redis = await startGw('gw-redis', 'serve', memFile.file, { redisUrl: redis.url });
sut.scan = await startGw('gw-scan', 'serve', scanFile.file);
const peerStart = ensurePeer();
const portkey = peerStart ? await startPortkey(peerStart) : null;
const peerVersions = peerStart
  ? {
      portkey: JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', '@portkey-ai', 'gateway', 'package.json'), 'utf8')).version,
      honoNodeServer: JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', '@hono', 'node-server', 'package.json'), 'utf8')).version,
      hono: JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', 'hono', 'package.json'), 'utf8')).version,
      dir: PEER_DIR,
    }
  : null;

const gwHeaders = (token) => ({ authorization: `Bearer ${token}`, 'x-gw-repo': 'github.com/acme/widgets', 'x-gw-application': 'bench' });
const cases = {
  direct: { name: 'direct', url: mock.url, headers: { 'x-api-key': 'sk-ant-api03-bench-vendor-key-not-a-real-key' }, pids: [mock.pid] },
  'node-proxy': { name: 'node-proxy', url: sut.proxy.url, headers: { 'x-api-key': 'sk-ant-api03-bench-vendor-key-not-a-real-key' }, pids: [sut.proxy.pid, mock.pid] },
  ...(sut.before ? { 'gw-before': { name: 'gw-before', url: sut.before.url, headers: gwHeaders(memFile.token), pids: [sut.before.pid, mock.pid] } } : {}),
  'gw-memory': { name: 'gw-memory', url: sut.memory.url, headers: gwHeaders(memFile.token), pids: [sut.memory.pid, mock.pid] },
  ...(sut.redis ? { 'gw-redis': { name: 'gw-redis', url: sut.redis.url, headers: gwHeaders(memFile.token), pids: [sut.redis.pid, mock.pid, redis.pid] } } : {}),
  'gw-scan': { name: 'gw-scan', url: sut.scan.url, headers: gwHeaders(scanFile.token), pids: [sut.scan.pid, mock.pid] },
  ...(portkey
    ? {
        portkey: {
          name: 'portkey',
          url: portkey.url,
          headers: { 'x-portkey-provider': 'anthropic', 'x-portkey-custom-host': `${mock.url}/v1`, authorization: 'Bearer sk-ant-api03-bench-vendor-key-not-a-real-key' },
          pids: [portkey.pid, mock.pid],
        },
      }
    : {}),
};
const sutPid = (name) => cases[name]?.pids[0];

// ----------------------------------------------------------- verification --
// One JSON and one SSE request through every case; the mock must see each, with
// the vendor key and without the caller's token; the loopback check covers every listener.
async function verify() {
  const out = {};
  await mock.configure({ events: 5, spacingMs: 1 });
  for (const c of Object.values(cases)) {
    const entry = {};
    for (const stream of [false, true]) {
      const before = await mock.stats();
      const res = await fetch(c.url + '/v1/messages', { method: 'POST', headers: { ...SDK_HEADERS, ...c.headers }, body: requestBody(4096, stream) });
      const text = await res.text();
      const after = await mock.stats();
      const seen = after.lastHeaders ?? {};
      entry[stream ? 'sse' : 'json'] = {
        status: res.status,
        mockReceived: after.messages - before.messages,
        mockPath: after.lastPath,
        vendorKeyUpstream: seen['x-api-key'] === 'sk-ant-api03-bench-vendor-key-not-a-real-key',
        callerTokenLeaked: JSON.stringify(seen).includes('gwct_'),
        bodyBytesUpstream: after.lastBodyBytes,
        intact: stream ? (text.match(/"text":"w\d+/g) ?? []).length === 5 && text.includes('"type":"message_stop"') : text.includes('"usage"'),
      };
    }
    out[c.name] = entry;
    log(`verify ${c.name}: ${JSON.stringify(entry)}`);
  }
  const pids = [mock.pid, ...Object.values(sut).map((s) => s.pid), ...(redis ? [redis.pid] : []), ...(portkey ? [portkey.pid] : [])];
  const sockets = listeningSockets(pids);
  return { requests: out, sockets, allLoopback: sockets.length > 0 && sockets.every((s) => s.loopback) };
}

const verification = await verify();
if (!verification.allLoopback) {
  log(`a listener is not on loopback: ${JSON.stringify(verification.sockets)}; stopping`);
  killAll();
  process.exit(4);
}

// -------------------------------------------------------------- scenarios --
const BODY_BYTES = 4096;
const scenarios = [];
const results = { environment, verification, peer: peerVersions, redis: redis ? { args: redis.args } : null, scenarios: {} };

const mainCases = ['direct', 'node-proxy', 'gw-before', 'gw-memory', 'gw-redis', 'gw-scan', 'portkey'].filter((n) => cases[n]).map((n) => cases[n]);

if (runs('s1')) {
  const scenario = { id: 's1', title: 'Non-streaming, open loop at 500 req/s', mode: 'rate', rate: 500, connections: 64, durationMs: 2500, prewarmMs: 1500, stream: false, body: requestBody(BODY_BYTES, false), mock: { events: 20, spacingMs: 5 } };
  results.scenarios.s1 = { scenario: strip(scenario), rounds: await interleaved(scenario, mainCases) };
}
if (runs('s2')) {
  const scenario = { id: 's2', title: 'Streaming latency: 8 concurrent streams, 20 deltas 5 ms apart', mode: 'concurrency', concurrency: 8, connections: 8, durationMs: 2500, prewarmMs: 1500, stream: true, body: requestBody(BODY_BYTES, true), mock: { events: 20, spacingMs: 5 } };
  results.scenarios.s2 = { scenario: strip(scenario), rounds: await interleaved(scenario, mainCases) };
}
if (runs('s3')) {
  const scenario = { id: 's3', title: 'Streaming throughput: 32 concurrent streams, 30 deltas back to back', mode: 'concurrency', concurrency: 32, connections: 32, durationMs: 2500, prewarmMs: 1500, stream: true, eventTiming: false, body: requestBody(BODY_BYTES, true), mock: { events: 30, spacingMs: 0 } };
  results.scenarios.s3 = { scenario: strip(scenario), rounds: await interleaved(scenario, mainCases) };
}
if (runs('s4')) {
  const scenario = { id: 's4', title: 'Non-streaming, 100 KiB Claude Code-sized bodies, open loop at 100 req/s', mode: 'rate', rate: 100, connections: 32, durationMs: 3000, prewarmMs: 1500, stream: false, body: requestBody(100 * 1024, false), mock: { events: 20, spacingMs: 5 } };
  const list = ['direct', 'gw-memory', 'gw-scan', 'portkey'].filter((n) => cases[n]).map((n) => cases[n]);
  results.scenarios.s4 = { scenario: strip(scenario), rounds: await interleaved(scenario, list, FEWER_ROUNDS) };
}

// The long-lived SUTs are done with; stop them before the phases that want the core.
await Promise.all([...Object.values(sut).map((s) => stopChild(s.child)), portkey ? stopChild(portkey.child) : null, redis ? stopChild(redis.child) : null]);

if (runs('s5')) results.scenarios.s5 = await extprocScenario();
if (runs('s6')) results.scenarios.s6 = await manyStreamsScenario();
if (runs('s7')) results.profile = await profileScenario();
if (runs('s7') && AB_DIST) results.profileBefore = await profileScenario({ bin: join(AB_DIST, 'cli', 'main.js'), suffix: '-before' });
if (runs('s8')) results.redaction = redactionThroughput();

await stopChild(mock.child);
environment.loadAverageEnd = loadavg();
environment.durationSeconds = (Date.now() - startedAt) / 1000;
mkdirSync(RESULTS, { recursive: true });
const { md, json } = writeReport(results, { resultsDir: RESULTS, date: DATE });
log(`wrote ${md} and ${json}`);
rmSync(work, { recursive: true, force: true });
process.exit(0);

// ------------------------------------------------------------ the phases --
function strip(scenario) {
  const { body, ...rest } = scenario;
  return { ...rest, bodyBytes: Buffer.byteLength(body) };
}

/** Record one real exchange from the mock (headers, body, each chunk as it arrived). */
async function recordExchange(events) {
  await mock.configure({ events, spacingMs: 2 });
  const body = requestBody(BODY_BYTES, true);
  const res = await fetch(mock.url + '/v1/messages', { method: 'POST', headers: { ...SDK_HEADERS, 'x-api-key': 'sk-ant-api03-bench-vendor-key-not-a-real-key' }, body });
  const chunks = [];
  for await (const chunk of res.body) chunks.push(Buffer.from(chunk).toString('base64'));
  const responseHeaders = {};
  res.headers.forEach((v, k) => {
    if (k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') responseHeaders[k] = v;
  });
  const requestHeaders = { ...SDK_HEADERS, 'x-gw-repo': 'github.com/acme/widgets', 'x-gw-application': 'bench' };
  const file = join(work, 'recording.json');
  writeFileSync(file, JSON.stringify({ requestHeaders, requestBody: body, status: res.status, responseHeaders, chunks }));
  return { file, chunks: chunks.length };
}

async function extprocScenario() {
  const recording = await recordExchange(30);
  log(`s5: recorded an exchange of ${recording.chunks} response body chunks`);
  const processor = await startGw('gw-extproc', 'extproc', memFile.file);
  const floor = await startFloor();
  const list = [
    { name: 'extproc-floor', target: floor.target, pids: [floor.pid] },
    { name: 'gw-extproc', target: processor.target, pids: [processor.pid] },
  ];
  const job = (c, concurrency, durationMs, warmupMs) => ({ kind: 'extproc', target: c.target, recording: recording.file, token: memFile.token, concurrency, durationMs: Math.round(durationMs * SCALE), warmupMs: Math.round(warmupMs * SCALE) });
  for (const c of list) await runLoad(job(c, 8, 2000, 0), []);
  const out = { scenario: { id: 's5', title: 'ext_proc: recorded exchange replayed over Process streams', chunksPerStream: recording.chunks, concurrency: [1, 16] }, rounds: [] };
  for (let r = 0; r < FEWER_ROUNDS; r++) {
    const round = {};
    const order = r % 2 === 0 ? list : [...list].reverse();
    for (const concurrency of [1, 16]) {
      for (const c of order) {
        const key = `${c.name}@${concurrency}`;
        round[key] = await runLoad(job(c, concurrency, 3000, 400), c.pids);
        log(`s5: round ${r + 1}/${FEWER_ROUNDS} ${key.padEnd(18)} ${brief(round[key])}`);
      }
    }
    out.rounds.push(round);
  }
  await Promise.all([stopChild(processor.child), stopChild(floor.child)]);
  return out;
}

async function manyStreamsScenario() {
  const streams = QUICK ? 500 : 1000;
  const gw = await startGw('gw-c1000', 'serve', memFile.file);
  const before = AB_DIST ? await startGw('gw-c1000-before', 'serve', memFile.file, { bin: join(AB_DIST, 'cli', 'main.js') }) : null;
  const idle = memory(gw.pid);
  const list = [
    { ...cases.direct, pids: [mock.pid] },
    ...(before ? [{ name: 'gw-before', url: before.url, headers: gwHeaders(memFile.token), pids: [before.pid, mock.pid] }] : []),
    { name: 'gw-memory', url: gw.url, headers: gwHeaders(memFile.token), pids: [gw.pid, mock.pid] },
  ];
  // 40 deltas 200 ms apart: each stream lasts about 8 s, all of them open at once after the ramp.
  const scenario = { id: 's6', title: `${streams} concurrent slow streams`, mode: 'concurrency', concurrency: streams, connections: streams, perWorker: 1, rampMs: 2000, durationMs: 30_000, warmupMs: 0, drainMs: 20_000, stream: true, body: requestBody(BODY_BYTES, true), mock: { events: 40, spacingMs: 200 } };
  // Warm-up: the same number of shorter streams through the gateway.
  await mock.configure({ events: 10, spacingMs: 100 });
  for (const c of list.slice(1)) {
    log(`s6: warm-up, ${streams} short streams through ${c.name}`);
    await runLoad({ ...loadJob(c, { ...scenario, mock: { events: 10 } }), durationMs: 15_000, drainMs: 15_000 }, []);
  }
  await mock.configure(scenario.mock);
  const rounds = [];
  const rssRounds = QUICK ? 1 : 2;
  let heapAtPeak = null;
  for (let r = 0; r < rssRounds; r++) {
    const round = {};
    for (const c of r % 2 === 0 ? list : [...list].reverse()) {
      await mock.configure(scenario.mock);
      // Where gw's memory is when every stream is open: its own Prometheus process metrics.
      const scrape =
        c.name === 'gw-memory' && heapAtPeak === null
          ? sleep(scenario.rampMs + 3000).then(() => heapMetrics(gw.adminUrl)).catch(() => null)
          : null;
      round[c.name] = await runLoad({ ...loadJob(c, scenario), durationMs: scenario.durationMs }, c.pids);
      if (scrape) heapAtPeak = await scrape;
      const mockStats = await mock.stats();
      round[c.name].mockMaxOpenStreams = mockStats.maxOpenStreams;
      log(`s6: round ${r + 1}/${rssRounds} ${c.name.padEnd(12)} ${brief(round[c.name])} peak RSS ${round[c.name].procs[0]?.rssPeakMB?.toFixed(1)} MB`);
    }
    rounds.push(round);
  }
  await Promise.all([stopChild(gw.child), before ? stopChild(before.child) : null]);
  return { scenario: { ...strip(scenario), streams, gwIdleRssMB: idle?.rssMB ?? null }, heapAtPeak, rounds };
}

async function heapMetrics(adminUrl) {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    rssMB: value('process_resident_memory_bytes'),
    heapUsedMB: value('nodejs_heap_size_used_bytes'),
    heapTotalMB: value('nodejs_heap_size_total_bytes'),
    externalMB: value('nodejs_external_memory_bytes'),
  };
}

async function profileScenario({ bin = GW_BIN, suffix = '' } = {}) {
  const name = `gw-serve-${DATE}${suffix}.cpuprofile`;
  const path = join(RESULTS, name);
  mkdirSync(RESULTS, { recursive: true });
  rmSync(path, { force: true });
  const gw = await startGw(`gw-profile${suffix}`, 'serve', memFile.file, { bin, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${RESULTS}`, `--cpu-prof-name=${name}`] });
  const target = { name: 'gw-profile', url: gw.url, headers: gwHeaders(memFile.token), pids: [gw.pid] };
  const nonStream = { mode: 'rate', rate: 500, connections: 64, durationMs: 6000, warmupMs: 0, stream: false, body: requestBody(BODY_BYTES, false), mock: {} };
  const streaming = { mode: 'concurrency', concurrency: 32, connections: 32, durationMs: 6000, warmupMs: 0, stream: true, eventTiming: false, body: requestBody(BODY_BYTES, true), mock: { events: 30, spacingMs: 0 } };
  log('s7: profiling gw serve (500 req/s JSON, then 32 concurrent streams)');
  // Warm up first; only the samples taken during the two measured runs are summarised (not start-up).
  await mock.configure({ events: 30, spacingMs: 0 });
  await runLoad(loadJob(target, { ...nonStream, durationMs: 2000 }), []);
  await runLoad(loadJob(target, { ...streaming, durationMs: 2000 }), []);
  const windows = [];
  const usNow = () => Number(process.hrtime.bigint() / 1000n);
  let from = usNow();
  const a = await runLoad(loadJob(target, nonStream), [gw.pid]);
  windows.push([from, usNow()]);
  from = usNow();
  const b = await runLoad(loadJob(target, streaming), [gw.pid]);
  windows.push([from, usNow()]);
  await stopChild(gw.child, 'SIGTERM', 20_000);
  if (!existsSync(path)) return { error: 'no profile written', load: [a, b] };
  // The build's package root (its code is <root>/dist), so a build from --ab counts as ours too.
  const summary = summarizeProfile(JSON.parse(readFileSync(path, 'utf8')), dirname(dirname(dirname(bin))), windows);
  return { file: `bench/results/${name}`, bytes: statSync(path).size, windows, load: { json: slim(a), sse: slim(b) }, ...summary };
}

function slim(r) {
  return { perSecond: r.perSecond, counted: r.counted, latencyMs: r.latencyMs, procs: r.procs };
}

/** bench/redaction-throughput.mjs belongs to the redaction work; run it as it is, pinned like the SUTs. */
function redactionThroughput() {
  const script = join(BENCH, 'redaction-throughput.mjs');
  if (!existsSync(script)) return { skipped: 'bench/redaction-throughput.mjs not present' };
  log('s8: bench/redaction-throughput.mjs');
  const [cmd, list] = PINNED ? ['taskset', ['-c', SUT_CPU, process.execPath, script]] : [process.execPath, [script]];
  const run = spawnSync(cmd, list, { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
  if (run.status !== 0) return { failed: true, status: run.status, stderr: (run.stderr ?? '').slice(-2000) };
  // Its table is read by column name (it is someone else's script; its columns may change).
  const rows = {};
  let columns = null;
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('|')) {
      columns = null;
      continue;
    }
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (columns === null) {
      columns = cells.map((c) => c.toLowerCase());
      continue;
    }
    if (cells.every((c) => /^-+$/.test(c))) continue;
    const row = Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
    const mbs = (key) => (row[key] === undefined ? undefined : Number(/([\d.]+)\s*MB\/s/.exec(row[key])?.[1]));
    rows[cells[0]] = { wallMBps: mbs('wall throughput') ?? mbs('throughput'), cpuMBps: mbs('cpu throughput'), raw: row };
  }
  return { output: run.stdout, rows };
}
