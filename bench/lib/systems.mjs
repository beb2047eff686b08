// The systems a bench run starts: the mock provider, redis-server, gw serve / gw extproc, and the two floors
// (a bare Node proxy, a bare grpc-js ext_proc server), each on its CPU, listening on 127.0.0.1.
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { readImageRuntime } from './image-runtime.mjs';
import { BENCH, GW_BIN, HARD_DEADLINE_MS, ROOT } from './options.mjs';
import { DRIVER_CPU, SUT_CPU, freePort, getJson, listeningLine, spawnOn, waitForLogLine, waitForPort, work } from './processes.mjs';

const { generateToken, hashToken } = await import(join(ROOT, 'dist', 'auth', 'token.js'));

/** The headers a gw caller sends: its token and the attribution headers. */
export const gwHeaders = (token) => ({ authorization: `Bearer ${token}`, 'x-gw-repo': 'github.com/acme/widgets', 'x-gw-application': 'bench' });

export async function startMock() {
  // The mock serves every case of the run, so it must outlive the run's deadline (its own default, 30 min,
  // is shorter than a full run: the soak, which runs last, lost its provider at 410,000 requests).
  const maxSeconds = String(Math.ceil(HARD_DEADLINE_MS / 1000) + 600);
  const child = spawnOn(DRIVER_CPU, process.execPath, [join(BENCH, 'mock-provider.mjs'), '--port', '0', '--max-seconds', maxSeconds], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningLine(child, 'mock provider');
  return {
    url,
    pid: child.pid,
    child,
    configure: (config) => getJson(`${url}/__bench/config`, { method: 'POST', body: JSON.stringify(config) }),
    stats: async () => (await getJson(`${url}/__bench/stats`)).body,
  };
}

export async function startRedis() {
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

export function writeGatewayFile(name, mockUrl, { secretScanning }) {
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
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'vendor-key', namespace: 'acme', labels: { 'gw.io/secret': 'true' } }, stringData: { key: 'sk-ant-api03-bench-vendor-key-not-a-real-key' } },
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

/** The node flags and environment the image runs gw with (Dockerfile): the bench measures gw as shipped. */
const IMAGE = readImageRuntime(ROOT);
export const GW_NODE_FLAGS = IMAGE.nodeFlags;

export async function startGw(name, command, file, { redisUrl = null, extraArgs = [], nodeArgs = [], bin = GW_BIN } = {}) {
  const port = await freePort();
  const adminPort = await freePort();
  const logFile = join(work, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const env = { ...IMAGE.env, ...process.env, GW_LOG_LEVEL: process.env.GW_LOG_LEVEL ?? 'info' };
  delete env.GW_ADMIN_TOKEN;
  const args = [
    ...GW_NODE_FLAGS,
    ...nodeArgs,
    bin,
    command,
    '-f',
    file,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--admin-host',
    '127.0.0.1',
    '--admin-port',
    String(adminPort),
    '--shutdown-grace-ms',
    '3000',
    ...extraArgs,
  ];
  if (redisUrl) {
    args.push('--redis', redisUrl);
    env.GW_ENCRYPTION_KEY = randomBytes(32).toString('base64');
  }
  const child = spawnOn(SUT_CPU, process.execPath, args, { stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  await waitForLogLine(logFile, `gw ${command}: listening`, child);
  return { name, url: `http://127.0.0.1:${port}`, target: `127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${adminPort}`, port, pid: child.pid, child, logFile };
}

export async function startNodeProxy(upstream) {
  const child = spawnOn(SUT_CPU, process.execPath, [join(BENCH, 'node-proxy.mjs'), '--upstream', upstream, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await listeningLine(child, 'node proxy');
  return { name: 'node-proxy', url, pid: child.pid, child };
}

export async function startFloor() {
  const child = spawnOn(SUT_CPU, process.execPath, [join(BENCH, 'extproc-floor.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const target = await listeningLine(child, 'ext_proc floor');
  return { name: 'extproc-floor', target, pid: child.pid, child };
}

/** The same empty answers over node:http2 with hand-made gRPC framing: what is Node's HTTP/2 rather than grpc-js. */
export async function startHttp2Floor() {
  const child = spawnOn(SUT_CPU, process.execPath, [join(BENCH, 'extproc-floor-http2.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const target = await listeningLine(child, 'ext_proc http2 floor');
  return { name: 'extproc-floor-http2', target, pid: child.pid, child };
}
