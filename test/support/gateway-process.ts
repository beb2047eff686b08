import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const GW_BIN = join(ROOT, 'dist', 'cli', 'main.js');
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface GatewayProcess {
  readonly url: string;
  readonly adminUrl: string;
  readonly child: ChildProcess;
  /** Every line the process wrote to stdout and stderr (for leak checks). */
  readonly output: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
}

/** Start the built `gw serve` as its own process, as a user would, on free loopback ports. */
export function startGateway(file: string, options: StartOptions = {}): Promise<GatewayProcess> {
  return spawnGw('serve', file, options);
}

/**
 * Start a built `gw` data plane (`serve` or `extproc`) and wait for its "listening" line.
 * A free port can be taken by another test process between the probe and the listen:
 * that start is tried again on new ports (any other failure is the test's to see).
 */
export async function spawnGw(command: 'serve' | 'extproc', file: string, options: StartOptions = {}): Promise<GatewayProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnGwOnce(command, file, options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function spawnGwOnce(command: 'serve' | 'extproc', file: string, options: StartOptions): Promise<GatewayProcess> {
  const port = await freePort();
  const adminPort = await freePort();
  // An empty file means none: the cluster layout, where the process only reads what the operator writes to Redis.
  const child = spawn(process.execPath, [GW_BIN, command, ...(file === '' ? [] : ['-f', file]), '--port', String(port), '--admin-port', String(adminPort), ...(options.args ?? [])], {
    env: { ...process.env, GW_ADMIN_TOKEN: ADMIN_TOKEN, GW_LOG_LEVEL: 'debug', ...(options.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        if (line.startsWith(`gw ${command}: listening`)) resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) =>
      output.push(
        ...c
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== ''),
      ),
    );
    void exited.then((code) => reject(new Error(`gw ${command} exited with ${code} before listening:\n${output.join('\n')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

export async function adminGet(gateway: GatewayProcess, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(gateway.adminUrl + path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return { status: res.status, body: await res.json() };
}

/** Usage is written just after the response ends; poll briefly for it. */
export async function waitForLogs(gateway: GatewayProcess, count: number, query = ''): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 100; i++) {
    const { body } = await adminGet(gateway, `/admin/v1/logs?limit=1000${query}`);
    const data = (body as { data: Array<Record<string, unknown>> }).data;
    if (data.length >= count) return data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${count} usage records`);
}

/**
 * The process writes its log lines in batches (up to 100 ms late, see
 * src/observability/logger.ts): before checking its output for what must not
 * be there, wait until every request it counted (gw_requests_total, counted in
 * the same call that writes the request's line) has its line in the output.
 * Lines are written in order, so the earlier ones are there too.
 */
export async function logsCaughtUp(gateway: Pick<GatewayProcess, 'adminUrl' | 'output'>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    let counted = 0;
    for (const line of metrics.split('\n')) if (line.startsWith('gw_requests_total{')) counted += Number(line.slice(line.lastIndexOf(' ') + 1));
    const written = gateway.output.filter((l) => l.startsWith('{') && l.includes('"msg":"request"')).length;
    if (written >= counted) return;
    if (Date.now() > deadline) throw new Error(`only ${written} of ${counted} request log lines reached the output within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until a line containing `text` is in the process's output (log lines arrive in batches). */
export async function waitForOutput(gateway: Pick<GatewayProcess, 'output'>, text: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = gateway.output.find((l) => l.includes(text));
    if (line !== undefined) return line;
    if (Date.now() > deadline) throw new Error(`no line containing ${JSON.stringify(text)} within ${timeoutMs} ms:\n${gateway.output.slice(-20).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
