// A real Kubernetes API server (kube-apiserver + etcd) for integration tests.
//
// The binaries are built from Go modules by test/tools/build-kube.sh into a
// cache outside the repository (see docs/testing-tools.md). `make test` runs
// that script before vitest; when a developer runs a single test file on a
// machine without the cache, ensureKubeBinaries() runs it itself, which takes
// several minutes the first time.
//
// Every server gets its own temp dir, its own free loopback ports, a fresh CA
// and serving certificate (openssl), a service-account signing key and a
// static admin token (group system:masters). Authorization is Node,RBAC, so
// RBAC objects behave as in a real cluster. There is no controller-manager:
// namespaces that are deleted stay Terminating, and no service-account
// tokens or default ServiceAccounts are created (the ServiceAccount admission
// plugin is disabled so Pods can still be submitted).

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { access, constants, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const execFileAsync = promisify(execFile);

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILD_KUBE = join(REPO_ROOT, 'test', 'tools', 'build-kube.sh');
const BUILD_HELM = join(REPO_ROOT, 'test', 'tools', 'build-helm.sh');

/** A first build of kube-apiserver takes ~10 minutes on 2 cores; allow more. */
const BUILD_TIMEOUT_MS = Number(process.env.MODEL_GATEWAY_BUILD_TIMEOUT_MS ?? 40 * 60_000);
const READY_TIMEOUT_MS = 120_000;

export interface KubeApiServer {
  /** https://127.0.0.1:<port> */
  url: string;
  /** Bearer token of a user in group system:masters. */
  token: string;
  /** PEM file of the CA that signed the serving certificate. */
  caFile: string;
  /** A kubeconfig (context "model-gateway-test") for url + token + CA. */
  kubeconfigPath: string;
  /** The server's temp dir (certs, etcd data, logs); removed by stop(). */
  dir: string;
  /** Bearer tokens of the extra users asked for (static token file), by user name. */
  userTokens: Record<string, string>;
  /**
   * The API server's audit log (JSON lines, one event per request that
   * changes a gw.io resource, at Metadata level): who the server
   * authenticated for each write.
   */
  auditLogPath: string;
  /** Stops kube-apiserver and etcd and removes dir. Safe to call twice. */
  stop(): Promise<void>;
}

/** An extra user the API server authenticates by a static bearer token (no groups but system:authenticated). */
export interface KubeTestUser {
  name: string;
  groups?: string[];
}

/** Root of the tool cache, the same rule the build scripts use. */
export function toolCacheDir(): string {
  const env = process.env.MODEL_GATEWAY_CACHE;
  if (env) return env;
  const xdg = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(xdg, 'model-gateway');
}

/** Runs a build script (idempotent; fast when the cache is warm). */
async function runBuildScript(script: string): Promise<void> {
  await new Promise<void>((resolveRun, rejectRun) => {
    const child = spawn('bash', [script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.length > 20_000) output = output.slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', (chunk: Buffer) => {
      collect(chunk);
      // Let a developer see "building ... takes several minutes".
      process.stderr.write(chunk);
    });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      rejectRun(
        new Error(`${script} did not finish within ${BUILD_TIMEOUT_MS / 60_000} minutes ` + `(set MODEL_GATEWAY_BUILD_TIMEOUT_MS, or run the script by hand). Logs: ${join(toolCacheDir(), 'logs')}`),
      );
    }, BUILD_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      rejectRun(new Error(`could not run ${script}: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveRun();
      else
        rejectRun(
          new Error(`${script} failed (${signal ?? `exit ${code}`}); the real kube-apiserver/etcd/helm ` + `could not be built. Build logs: ${join(toolCacheDir(), 'logs')}\n${output.trim()}`),
        );
    });
  });
}

async function assertExecutable(path: string, script: string): Promise<void> {
  try {
    await access(path, constants.X_OK);
  } catch {
    throw new Error(`${script} succeeded but ${path} is missing or not executable`);
  }
}

let kubeBinaries: Promise<{ kubeApiServer: string; etcd: string }> | undefined;

/** Paths of kube-apiserver and etcd, building them first if needed. */
export function ensureKubeBinaries(): Promise<{ kubeApiServer: string; etcd: string }> {
  kubeBinaries ??= (async () => {
    await runBuildScript(BUILD_KUBE);
    const bin = join(toolCacheDir(), 'bin');
    const result = { kubeApiServer: join(bin, 'kube-apiserver'), etcd: join(bin, 'etcd') };
    await assertExecutable(result.kubeApiServer, BUILD_KUBE);
    await assertExecutable(result.etcd, BUILD_KUBE);
    return result;
  })();
  kubeBinaries.catch(() => {
    kubeBinaries = undefined; // let a later call retry
  });
  return kubeBinaries;
}

let helmBinary: Promise<string> | undefined;

/** Path of the pinned helm, building it first if needed. */
export function ensureHelm(): Promise<string> {
  helmBinary ??= (async () => {
    await runBuildScript(BUILD_HELM);
    const helm = join(toolCacheDir(), 'bin', 'helm');
    await assertExecutable(helm, BUILD_HELM);
    return helm;
  })();
  helmBinary.catch(() => {
    helmBinary = undefined;
  });
  return helmBinary;
}

// ---------------------------------------------------------------------------
// processes

/** Children still running; killed synchronously if the test process exits. */
const live = new Set<ChildProcess>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * Linux's parent-death signal (via util-linux `setpriv`) also covers the case
 * where the test process is killed with SIGKILL and no exit hook runs.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

function startProcess(name: string, binary: string, args: string[], logFile: string): ChildProcess {
  installExitHook();
  const [cmd, argv] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', binary, ...args]] : [binary, args];
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  live.add(child);
  child.on('exit', () => {
    live.delete(child);
    // Let both pipes drain before closing the log.
    setTimeout(() => log.end(), 50);
  });
  child.on('error', (err) => log.write(`\n[${name}] spawn error: ${err.message}\n`));
  return child;
}

async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function tail(file: string, lines = 40): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function exitDescription(child: ChildProcess): string | undefined {
  if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
  if (child.signalCode !== null) return `was killed by ${child.signalCode}`;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GET a URL; resolves with status and body, rejects on connection errors. */
function get(url: string, opts: { ca?: Buffer; token?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolveGet, rejectGet) => {
    const u = new URL(url);
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const req = u.protocol === 'https:' ? httpsRequest(u, { method: 'GET', ca: opts.ca, headers, timeout: 5_000 }) : httpRequest(u, { method: 'GET', headers, timeout: 5_000 });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolveGet({ status: res.statusCode ?? 0, body }));
      res.on('error', rejectGet);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', rejectGet);
    req.end();
  });
}

/** Polls until check() is true; fails early if the process dies. */
async function waitFor(what: string, child: ChildProcess, logFile: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    const died = exitDescription(child);
    if (died) throw new Error(`${what} ${died} before it was ready. Last log lines:\n${await tail(logFile)}`);
    try {
      if (await check()) return;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`${what} was not ready within ${timeoutMs / 1000}s (${lastError || 'not ready'}). Last log lines:\n${await tail(logFile)}`);
}

// ---------------------------------------------------------------------------
// certificates and credentials

async function openssl(cwd: string, args: string[]): Promise<void> {
  try {
    await execFileAsync('openssl', args, { cwd });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('openssl is not installed (Debian: apt-get install openssl)');
    throw new Error(`openssl ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
}

/** CA, serving cert for 127.0.0.1/localhost, service-account key. */
async function writeCredentials(dir: string): Promise<void> {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=model-gateway-test-ca',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await openssl(dir, ['req', '-new', ...ec, '-keyout', 'apiserver.key', '-out', 'apiserver.csr', '-subj', '/CN=kube-apiserver']);
  await writeFile(
    join(dir, 'apiserver.ext'),
    [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,' + 'DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local',
      '',
    ].join('\n'),
  );
  await openssl(dir, ['x509', '-req', '-in', 'apiserver.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'apiserver.crt', '-days', '2', '-extfile', 'apiserver.ext']);
  await openssl(dir, ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key']);
  await openssl(dir, ['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub']);
}

function kubeconfigYaml(url: string, caPem: Buffer, token: string): string {
  // JSON is valid YAML; every kubeconfig reader (client-node, helm) accepts it.
  return (
    JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'model-gateway-test', cluster: { server: url, 'certificate-authority-data': caPem.toString('base64') } }],
        users: [{ name: 'admin', user: { token } }],
        contexts: [{ name: 'model-gateway-test', context: { cluster: 'model-gateway-test', user: 'admin', namespace: 'default' } }],
        'current-context': 'model-gateway-test',
        preferences: {},
      },
      null,
      2,
    ) + '\n'
  );
}

// ---------------------------------------------------------------------------

async function startEtcd(etcd: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const logFile = join(dir, 'etcd.log');
  // Ports are picked free and then bound by etcd; retry if another process
  // took one in between.
  for (let attempt = 1; ; attempt++) {
    const [clientPort, peerPort] = [await freePort(), await freePort()];
    const url = `http://127.0.0.1:${clientPort}`;
    const peer = `http://127.0.0.1:${peerPort}`;
    const child = startProcess(
      'etcd',
      etcd,
      [
        '--name=test',
        `--data-dir=${join(dir, 'etcd')}`,
        `--listen-client-urls=${url}`,
        `--advertise-client-urls=${url}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=test=${peer}`,
        '--initial-cluster-state=new',
        '--unsafe-no-fsync', // test data only; much faster on shared disks
        '--log-level=warn',
      ],
      logFile,
    );
    try {
      await waitFor(
        'etcd',
        child,
        logFile,
        async () => {
          const res = await get(`${url}/health`);
          return res.status === 200 && res.body.includes('"health":"true"');
        },
        60_000,
      );
      return { child, url };
    } catch (err) {
      await stopProcess(child);
      if (attempt >= 3 || !/address already in use/.test((err as Error).message)) throw err;
      await rm(join(dir, 'etcd'), { recursive: true, force: true });
    }
  }
}

async function startApiServer(binary: string, dir: string, etcdUrl: string, token: string): Promise<{ child: ChildProcess; url: string }> {
  const logFile = join(dir, 'kube-apiserver.log');
  const ca = await readFile(join(dir, 'ca.crt'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const child = startProcess(
      'kube-apiserver',
      binary,
      [
        `--etcd-servers=${etcdUrl}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${port}`,
        `--cert-dir=${join(dir, 'certs')}`,
        `--tls-cert-file=${join(dir, 'apiserver.crt')}`,
        `--tls-private-key-file=${join(dir, 'apiserver.key')}`,
        `--client-ca-file=${join(dir, 'ca.crt')}`,
        `--token-auth-file=${join(dir, 'tokens.csv')}`,
        '--authorization-mode=Node,RBAC',
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-account-key-file=${join(dir, 'sa.pub')}`,
        `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
        '--service-cluster-ip-range=10.0.0.0/24',
        // Needs the service-account controllers, which do not run here.
        '--disable-admission-plugins=ServiceAccount',
        '--allow-privileged=true',
        '--profiling=false',
        '--logging-format=text',
        '--v=1',
        `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`,
        `--audit-log-path=${join(dir, 'audit.log')}`,
        // Written as each request completes, so a test can read it right after its call.
        '--audit-log-mode=blocking',
      ],
      logFile,
    );
    try {
      await waitFor(
        'kube-apiserver',
        child,
        logFile,
        async () => {
          const res = await get(`${url}/readyz`, { ca, token });
          return res.status === 200 && res.body.trim() === 'ok';
        },
        READY_TIMEOUT_MS,
      );
      return { child, url };
    } catch (err) {
      await stopProcess(child);
      if (attempt >= 3 || !/address already in use/.test((err as Error).message)) throw err;
    }
  }
}

const DIR_PREFIX = 'mg-kube-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temp dirs left by test processes that were killed outright (their
 * etcd and kube-apiserver died with them through the parent-death signal).
 */
async function sweepStaleDirs(): Promise<void> {
  let entries: string[];
  try {
    entries = (await readdir(tmpdir())).filter((e) => e.startsWith(DIR_PREFIX));
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = join(tmpdir(), entry);
    try {
      const owner = Number((await readFile(join(dir, 'owner.pid'), 'utf8')).trim());
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) await rm(dir, { recursive: true, force: true });
    } catch {
      // no owner file (still being set up, or not ours): leave it
    }
  }
}

/** Starts etcd + kube-apiserver on free loopback ports and waits for /readyz. */
/** Writes to gw.io resources, once each when the response is sent; nothing else (reads and other groups would only fill the disk). */
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    verbs: [create, update, patch, delete]
    resources:
      - group: gw.io
  - level: None
`;

export async function startKubeApiServer(options: { users?: KubeTestUser[] } = {}): Promise<KubeApiServer> {
  const bins = await ensureKubeBinaries();
  await sweepStaleDirs();
  const dir = await mkdtemp(join(tmpdir(), DIR_PREFIX));
  liveDirs.add(dir);
  await writeFile(join(dir, 'owner.pid'), `${process.pid}\n`);
  const children: ChildProcess[] = [];
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      // kube-apiserver first: it holds etcd connections.
      for (const child of [...children].reverse()) await stopProcess(child);
      if (process.env.MODEL_GATEWAY_KEEP_KUBE_DIR !== '1') await rm(dir, { recursive: true, force: true });
      liveDirs.delete(dir);
    })());

  try {
    await writeCredentials(dir);
    const token = randomBytes(24).toString('hex');
    const userTokens: Record<string, string> = {};
    const lines = [`${token},model-gateway-test-admin,admin,"system:masters"`];
    for (const [i, user] of (options.users ?? []).entries()) {
      userTokens[user.name] = randomBytes(24).toString('hex');
      lines.push(`${userTokens[user.name]},${user.name},user-${i}${user.groups?.length ? `,"${user.groups.join(',')}"` : ''}`);
    }
    await writeFile(join(dir, 'tokens.csv'), `${lines.join('\n')}\n`, {
      mode: 0o600,
    });

    await writeFile(join(dir, 'audit-policy.yaml'), AUDIT_POLICY);
    const etcd = await startEtcd(bins.etcd, dir);
    children.push(etcd.child);
    const api = await startApiServer(bins.kubeApiServer, dir, etcd.url, token);
    children.push(api.child);

    const caFile = join(dir, 'ca.crt');
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfigYaml(api.url, await readFile(caFile), token), { mode: 0o600 });
    return { url: api.url, token, caFile, kubeconfigPath, dir, userTokens, auditLogPath: join(dir, 'audit.log'), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
