import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { GW_BIN } from './gateway-process.js';

/**
 * The built `gw operator` as its own process, as a cluster runs it, on a
 * free admin port. Tests kill it with SIGKILL to play a crashed replica.
 */
export interface OperatorProcess {
  readonly identity: string;
  readonly adminUrl: string;
  readonly child: ChildProcess;
  /** Every line the process wrote to stdout and stderr. */
  readonly output: string[];
  readyz(): Promise<{ status: number; role?: string }>;
  /** One sample of a metric (the first line whose name and labels match), or null. */
  metric(name: string, labels?: Record<string, string>): Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface OperatorOptions {
  readonly kubeconfig: string;
  readonly redisUrl: string;
  readonly encryptionKey: string;
  readonly identity: string;
  readonly args?: string[];
  readonly env?: Record<string, string>;
  /** false: return once the admin listener answers, synced or not (an operator expected never to sync). */
  readonly waitReady?: boolean;
  /** Another build's entry point (the rolling-upgrade test); this build's dist by default. */
  readonly bin?: string;
}

export async function startOperator(options: OperatorOptions): Promise<OperatorProcess> {
  const adminPort = await freePort();
  const args = [
    options.bin ?? GW_BIN,
    'operator',
    '--kubeconfig',
    options.kubeconfig,
    '--redis',
    options.redisUrl,
    '--identity',
    options.identity,
    '--admin-host',
    '127.0.0.1',
    '--admin-port',
    String(adminPort),
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, GW_ENCRYPTION_KEY: options.encryptionKey, GW_LOG_LEVEL: 'debug', KUBECONFIG: '', ...(options.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const output: string[] = [];
  // For a post-mortem of a failed run: GW_TEST_OPERATOR_LOG_DIR=/tmp/x keeps every operator's output there.
  const logDir = process.env.GW_TEST_OPERATOR_LOG_DIR;
  // One collector per stream, each keeping its unfinished last line: a chunk can end mid-line.
  const collector = (): ((chunk: Buffer) => void) => {
    let partial = '';
    return (chunk) => {
      if (logDir) appendFileSync(join(logDir, `${options.identity}.log`), chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      output.push(...lines.filter((l) => l !== ''));
      if (output.length > 20_000) output.splice(0, output.length - 20_000);
    };
  };
  child.stdout?.on('data', collector());
  child.stderr?.on('data', collector());
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const adminUrl = `http://127.0.0.1:${adminPort}`;

  const readyz = async (): Promise<{ status: number; role?: string }> => {
    const res = await fetch(`${adminUrl}/readyz`);
    const body = (await res.json()) as { role?: string };
    return { status: res.status, ...(body.role ? { role: body.role } : {}) };
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`gw operator exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output.join('\n')}`);
    try {
      const status = (await readyz()).status;
      if (status === 200 || options.waitReady === false) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`gw operator was not ready within 60 s:\n${output.slice(-50).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    identity: options.identity,
    adminUrl,
    child,
    output,
    readyz,
    async metric(name, labels = {}) {
      const text = await (await fetch(`${adminUrl}/metrics`)).text();
      for (const line of text.split('\n')) {
        if (!line.startsWith(name)) continue;
        const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? (\S+)$/.exec(line);
        if (!match || match[1] !== name) continue;
        const have = Object.fromEntries(
          (match[3] ?? '')
            .split(',')
            .filter(Boolean)
            .map((pair) => {
              const [k, v] = pair.split('=') as [string, string];
              return [k, v.replace(/^"|"$/g, '')];
            }),
        );
        if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[4]);
      }
      return null;
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

export interface ReaderGateway {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `gw serve --redis URL` with no file: the cluster layout, where the data
 * plane only reads what the operator writes.
 */
export async function startReaderGateway(redisUrl: string, encryptionKey: string, bin: string = GW_BIN): Promise<ReaderGateway> {
  const port = await freePort();
  const adminPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, GW_ENCRYPTION_KEY: encryptionKey, GW_LOG_LEVEL: 'warn' };
  delete env.GW_CONFIG;
  const child = spawn(process.execPath, [bin, 'serve', '--redis', redisUrl, '--port', String(port), '--admin-port', String(adminPort)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      for (const line of chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')) {
        output.push(line);
        if (line.startsWith('gw serve: listening')) resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`gw serve exited with ${code} before listening:\n${output.join('\n')}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
