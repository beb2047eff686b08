import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runUntilSignalled } from '../../../src/cli/lifecycle.js';
import { GRPC_TRANSPORTS, readServeConfig } from '../../../src/config/serve-config.js';
import { openProcessStream, statusCodeNumber, type ProcessingResponse } from '../../../src/extproc/proto.js';
import { runExtProc, type RunningExtProc } from '../../../src/extproc/run-extproc.js';
import { SocketInUseError } from '../../../src/extproc/socket-file.js';
import { lockSocketPath } from '../../../src/extproc/socket-lock.js';
import { createLogger, type Logger } from '../../../src/observability/logger.js';
import { writeGatewayConfig } from '../../support/gateway-config.js';

/**
 * `gw extproc`'s wiring, in this process: the file's companies in state, the
 * pipeline behind the gRPC service, the admin listener ready, the socket path
 * locked and a stale socket reclaimed; a failed start undoes what it started;
 * SIGTERM (as `gw extproc` waits for it) stops everything.
 */

const running: RunningExtProc[] = [];
const clients: grpc.Client[] = [];
const listeners: Server[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const processor of running.splice(0)) await processor.stop();
  for (const server of listeners.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const gatewayFile = writeGatewayConfig({ credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: 'http://127.0.0.1:9', secret: 'sk-vendor-test' }] });
const dir = mkdtempSync(join(tmpdir(), 'gw-run-extproc-'));
let n = 0;
const socketPath = (): string => join(dir, `p${++n}.sock`);

/** A logger whose lines the test reads. */
function recordingLogger(): { logger: Logger; lines: () => Array<{ level: number; msg: string; [key: string]: unknown }> } {
  const written: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void written.push(line) });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as { level: number; msg: string }) };
}

async function start(args: string[], logger: Logger = recordingLogger().logger): Promise<RunningExtProc> {
  const processor = await runExtProc(readServeConfig(['-f', gatewayFile.file, '--admin-port', '0', '--shutdown-grace-ms', '1000', ...args], {}, 'extproc'), { logger });
  running.push(processor);
  return processor;
}

async function stop(processor: RunningExtProc): Promise<void> {
  running.splice(running.indexOf(processor), 1);
  await processor.stop();
}

/** The first answer of the processor to a request's headers. */
async function answerTo(address: string, path: string, headers: Record<string, string>): Promise<ProcessingResponse> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  clients.push(client);
  const call = openProcessStream(client);
  const answer = new Promise<ProcessingResponse>((resolve, reject) => {
    call.once('data', resolve);
    call.once('error', reject);
  });
  const all = { ':method': 'POST', ':path': path, 'content-type': 'application/json', ...headers };
  call.write({ request_headers: { headers: { headers: Object.entries(all).map(([key, value]) => ({ key, raw_value: Buffer.from(value) })) } } });
  const response = await answer;
  call.cancel();
  return response;
}

async function refused(url: string): Promise<boolean> {
  return fetch(url).then(
    () => false,
    () => true,
  );
}

/** A socket file nobody listens on: what a processor killed with SIGKILL leaves behind. */
async function staleSocket(path: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function listening(port = 0): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  listeners.push(server);
  return (server.address() as { port: number }).port;
}

describe.each(GRPC_TRANSPORTS)('runExtProc (%s transport)', (transport) => {
  it("serves the file's companies through the pipeline over gRPC on TCP, ready on the admin listener, until stopped", async () => {
    const processor = await start(['--grpc-transport', transport, '--port', '0']);
    expect(processor.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    expect(processor.state.kind).toBe('memory');
    expect((await fetch(`${processor.adminUrl}/readyz`)).status).toBe(200);

    // The file's token is known: its request goes on to the body phase; a stranger gets our 401.
    const known = await answerTo(processor.address, '/v1/messages', { authorization: `Bearer ${gatewayFile.tokens.alice}` });
    expect(known.response).toBe('request_headers');
    const stranger = await answerTo(processor.address, '/v1/messages', {});
    expect(stranger.response).toBe('immediate_response');
    expect(statusCodeNumber(stranger.immediate_response?.status?.code)).toBe(401);

    await stop(processor);
    expect(await refused(`${processor.adminUrl}/readyz`)).toBe(true);
    const after = answerTo(processor.address, '/v1/messages', {});
    await expect(after).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
  });

  it('on a Unix socket, removes a stale socket file with a warning and holds the path until it stops', async () => {
    const path = socketPath();
    await staleSocket(path);
    const log = recordingLogger();
    const processor = await start(['--grpc-transport', transport, '--socket', path], log.logger);
    expect(processor.address).toBe(`unix:${path}`);
    expect(log.lines().filter((l) => l.msg.startsWith('removed a stale socket'))).toEqual([expect.objectContaining({ socket: path, level: 40 })]);
    expect((await answerTo(processor.address, '/v1/messages', {})).response).toBe('immediate_response');

    // A second instance on the same path is refused while the first serves it.
    await expect(start(['--grpc-transport', transport, '--socket', path])).rejects.toBeInstanceOf(SocketInUseError);
    expect((await answerTo(processor.address, '/v1/messages', {})).response).toBe('immediate_response');

    // Stopped, it gives the path up: the next instance starts on it (no stale file to remove, no warning).
    await stop(processor);
    const next = recordingLogger();
    const successor = await start(['--grpc-transport', transport, '--socket', path], next.logger);
    expect(successor.address).toBe(`unix:${path}`);
    expect(next.lines().filter((l) => l.msg.startsWith('removed a stale socket'))).toEqual([]);
  });

  it('a start that fails closes what it had started and throws the reason', async () => {
    // gRPC's port is taken: the state, the admin listener and the redaction pool were already up.
    const taken = await listening();
    const adminPort = await listening();
    await new Promise((resolve) => listeners.pop()?.close(resolve));
    const error = await runExtProc(readServeConfig(['-f', gatewayFile.file, '--grpc-transport', transport, '--port', String(taken), '--admin-port', String(adminPort)], {}, 'extproc'), {
      logger: recordingLogger().logger,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toMatch(/address already in use|EADDRINUSE|No address added/i);
    // The admin listener it had opened is closed again: its port is free.
    expect(await listening(adminPort)).toBe(adminPort);
  });

  it('a socket path it must not take is reported, and the path lock is given back', async () => {
    const path = socketPath();
    writeFileSync(path, 'not a socket');
    await expect(start(['--grpc-transport', transport, '--socket', path])).rejects.toThrow(`${path} exists and is not a socket; refusing to remove it`);
    expect(existsSync(path) && !lstatSync(path).isSocket()).toBe(true);
    // Nobody holds the lock any more.
    const lock = await lockSocketPath(path);
    await lock?.release();
  });

  it('stops on SIGTERM the way gw extproc waits for it', async () => {
    const log = recordingLogger();
    const processor = await start(['--grpc-transport', transport, '--port', '0'], log.logger);
    const before = new Set(process.listeners('SIGTERM'));
    const stopped = runUntilSignalled(log.logger, processor);
    const added = process.listeners('SIGTERM').filter((l) => !before.has(l));
    expect(added).toHaveLength(1);
    // Only the listener gw extproc added is called: the test runner's own stay out of it.
    for (const listener of added) (listener as (signal: NodeJS.Signals) => void)('SIGTERM');
    await stopped;
    running.splice(running.indexOf(processor), 1);
    expect(process.listeners('SIGTERM').filter((l) => !before.has(l))).toEqual([]);
    expect(log.lines().map((l) => l.msg)).toContain('shutting down: finishing requests in flight');
    expect(await refused(`${processor.adminUrl}/readyz`)).toBe(true);
    await vi.waitFor(() => expect(answerTo(processor.address, '/v1/messages', {})).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE }));
  });
});
