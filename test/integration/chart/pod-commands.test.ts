/**
 * The commands the chart's gateway pod runs, run here as rendered: the
 * processor's preStop drain script (against an HTTP server that answers as
 * Envoy's admin interface does), and the processor's own command line and
 * environment against a real Redis.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';
import { CHART, find, FULLNAME, GW_CLI, HELM_TIMEOUT_MS, type Manifest, removeHelmHome, renderChart, requireBuiltCli, TOOL_TIMEOUT_MS, valueSets } from './chart-support.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- reading rendered manifests */
type Any = any;

const NAMESPACE = 'gw-pod';
let manifests: Manifest[];
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'mg-chart-pod-'));
  manifests = await renderChart(valueSets()[0]!, NAMESPACE);
}, TOOL_TIMEOUT_MS);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  removeHelmHome();
});

function container(name: string): Any {
  const spec = (find(manifests, 'Deployment', `${FULLNAME}-gateway`) as Any).spec.template.spec;
  return spec.containers.find((c: Any) => c.name === name);
}
const processorContainer = (): Any => container('processor');

describe('the preStop drain of Envoy', () => {
  let admin: Server;
  const calls: string[] = [];
  let active = 3;

  beforeAll(async () => {
    // Answers as Envoy's admin interface: mutations only by POST, stats as "name: value" lines.
    admin = createServer((req, res) => {
      const path = req.url ?? '/';
      calls.push(`${req.method} ${path.split('?')[0]}`);
      const post = (): boolean => {
        if (req.method === 'POST') return true;
        res.writeHead(405).end('This endpoint must be invoked via POST');
        return false;
      };
      if (path === '/healthcheck/fail' && post()) res.end('OK\n');
      else if (path.startsWith('/drain_listeners') && post()) res.end(path.includes('graceful') ? 'OK\n' : 'not graceful\n');
      else if (path.startsWith('/stats?filter=')) {
        const filter = new RegExp(decodeURIComponent(path.slice('/stats?filter='.length)));
        const line = `http.gw.downstream_rq_active: ${active}`;
        // Each poll sees one request fewer, as streams finish.
        active = Math.max(0, active - 1);
        res.end(filter.test('http.gw.downstream_rq_active') ? `${line}\n` : '');
      } else if (path === '/quitquitquit' && post()) res.end('OK\n');
      else if (!res.headersSent) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => admin.close(() => resolve())));

  it('fails readiness, drains gracefully, waits for the streams, then stops Envoy', async () => {
    // The drain is the shutdown container's: a liveness restart of the processor never runs it.
    const command = container('shutdown').lifecycle.preStop.exec.command as string[];
    expect(command.slice(0, 2)).toEqual(['node', '/etc/gw/drain/drain-envoy.mjs']);
    const script = join(CHART, 'files', 'drain-envoy.mjs');
    const url = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
    // The rendered arguments, but Envoy's address and no endpoint wait (the streams still have to end).
    const args = [script, url, '0', command[4] as string];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(calls[0]).toBe('POST /healthcheck/fail');
    expect(calls[1]).toBe('POST /drain_listeners');
    const polls = calls.filter((c) => c === 'GET /stats');
    expect(polls.length).toBe(4); // 3, 2, 1, then 0 active requests
    expect(calls.at(-1)).toBe('POST /quitquitquit');
    expect(output).toContain('no request in flight');
  }, 60_000);

  it('stops at once when Envoy is already gone', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const child = spawn(process.execPath, [join(CHART, 'files', 'drain-envoy.mjs'), url, '0', '600'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('Envoy does not answer');
  }, 60_000);
});

describe("the processor's preStop", () => {
  /** Envoy's ready listener (200, or 503 once draining) and admin /server_info, until `gone`. */
  async function fakeEnvoy(readyStatus: number): Promise<{ ready: string; admin: string; goAway(): void; close(): Promise<void> }> {
    let gone = false;
    const server = createServer((req, res) => {
      if (gone) {
        req.socket.destroy();
        return;
      }
      if (req.url === '/ready') res.writeHead(readyStatus).end(readyStatus === 200 ? 'LIVE\n' : 'DRAINING\n');
      else if (req.url === '/server_info') res.end('{"state":"LIVE"}');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      ready: url,
      admin: url,
      goAway: () => {
        gone = true;
        server.closeAllConnections();
      },
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  function run(ready: string, admin: string): { exited: Promise<number | null>; output: () => string } {
    const command = processorContainer().lifecycle.preStop.exec.command as string[];
    expect(command.slice(0, 2)).toEqual(['node', '/etc/gw/drain/await-envoy-drain.mjs']);
    const child = spawn(process.execPath, [join(CHART, 'files', 'await-envoy-drain.mjs'), ready, admin, command[4] as string], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    return { exited: new Promise((resolve) => child.once('exit', resolve)), output: () => output };
  }

  it('returns at once when Envoy is not draining (a liveness restart of the processor alone): Envoy is neither drained nor stopped', async () => {
    const envoy = await fakeEnvoy(200);
    try {
      const { exited, output } = run(envoy.ready, envoy.admin);
      expect(await exited).toBe(0);
      expect(output()).toContain('not draining');
    } finally {
      await envoy.close();
    }
  }, 30_000);

  it('keeps the processor up while Envoy drains, until Envoy has exited', async () => {
    const envoy = await fakeEnvoy(503);
    try {
      const { exited, output } = run(envoy.ready, envoy.admin);
      let done = false;
      void exited.then(() => (done = true));
      for (let i = 0; i < 100 && !output().includes('waiting'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(output()).toContain('Envoy is draining');
      expect(done).toBe(false);
      envoy.goAway();
      expect(await exited).toBe(0);
      expect(output()).toContain('Envoy has exited');
    } finally {
      await envoy.close();
    }
  }, 30_000);
});

describe('the processor container', () => {
  let redis: TestRedis | undefined;

  afterAll(async () => {
    await redis?.destroy();
  });

  // The chart runs `gw extproc --socket ...` without a file: the operator owns the state in Redis.
  it(
    'starts as rendered (flags and environment) against real Redis and serves the socket and its probes',
    async () => {
      requireBuiltCli();
      const container = processorContainer();
      const password = randomBytes(12).toString('hex');
      redis = await startRedis({ password });
      const files: Record<string, string> = {
        '/etc/gw/encryption/key': join(work, 'encryption-key'),
        '/etc/gw/admin-token/token': join(work, 'admin-token'),
      };
      writeFileSync(files['/etc/gw/encryption/key'] as string, randomBytes(32).toString('base64'));
      writeFileSync(files['/etc/gw/admin-token/token'] as string, randomBytes(20).toString('hex'));
      const socket = join(work, 'extproc.sock');
      const adminPort = await freePort();

      // The container's environment, resolved as the kubelet would: Secrets, then $(VAR) references.
      const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
      for (const e of container.env as Any[]) {
        if (e.valueFrom?.secretKeyRef) {
          expect(e.name).toBe('GW_REDIS_PASSWORD');
          env[e.name] = password;
        } else {
          env[e.name] = (e.value as string).replace(/\$\(([A-Z_]+)\)/g, (_m, name: string) => env[name] ?? '');
        }
      }
      // The in-cluster Service name of the bundled Redis, and the mounted files, point at the test's.
      env.GW_REDIS_URL = (env.GW_REDIS_URL as string).replace(`${FULLNAME}-redis.${NAMESPACE}.svc:6379`, `127.0.0.1:${redis.port}`);
      for (const key of ['GW_ENCRYPTION_KEY_FILE', 'GW_ADMIN_TOKEN_FILE']) env[key] = files[env[key] as string] as string;
      const args = (container.args as string[]).map((a) => (a === '/var/run/gw/extproc.sock' ? socket : a === '9090' ? String(adminPort) : a));

      const child = spawn(process.execPath, [GW_CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      try {
        const deadline = Date.now() + 30_000;
        for (;;) {
          if (child.exitCode !== null) throw new Error(`gw extproc exited ${child.exitCode}:\n${output}`);
          const ready = await fetch(`http://127.0.0.1:${adminPort}/readyz`).then(
            (r) => r.status,
            () => 0,
          );
          if (ready === 200) break;
          if (Date.now() > deadline) throw new Error(`gw extproc never became ready:\n${output}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(existsSync(socket)).toBe(true);
        expect((await fetch(`http://127.0.0.1:${adminPort}/healthz`)).status).toBe(200);
        const usage = await fetch(`http://127.0.0.1:${adminPort}/admin/v1/usage`, { headers: { authorization: `Bearer ${readFileSync(files['/etc/gw/admin-token/token'] as string, 'utf8')}` } });
        expect(usage.status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
    HELM_TIMEOUT_MS,
  );
});
