import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startExtProcServer, type ExtProcServer } from '../../../src/extproc/extproc-server.js';
import { GRPC_TRANSPORTS } from '../../../src/config/serve-config.js';
import { openProcessStream, type ProcessingResponse } from '../../../src/extproc/proto.js';
import { authed, harness } from '../pipeline/support.js';

/**
 * The gRPC service around ProcessStream: binding (TCP or a Unix socket), the
 * in-flight count, and shutdown that lets open streams finish until the
 * grace runs out and then records them as shutdown.
 */

const servers: ExtProcServer[] = [];
const clients: grpc.Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const server of servers.splice(0)) await server.shutdown(0);
});

function requestHeaders(): object {
  const headers = { ':method': 'POST', ':path': '/v1/messages', ...authed() };
  return { request_headers: { headers: { headers: Object.entries(headers).map(([key, value]) => ({ key, raw_value: Buffer.from(value ?? '') })) } } };
}

/** A logger that fails the test on any stream failure: none of these streams may fail. */
const NO_FAILURES = {
  error(fields: { detail: string }, message: string): void {
    throw new Error(`unexpected stream failure: ${message}: ${fields.detail}`);
  },
};

describe.each(GRPC_TRANSPORTS)('startExtProcServer (%s transport)', (transport) => {
  it('binds TCP on an ephemeral port and reports host:port', async () => {
    const h = await harness();
    const server = await startExtProcServer(h.pipeline, { host: '127.0.0.1', port: 0 }, NO_FAILURES, undefined, transport);
    servers.push(server);
    expect(server.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  });

  it('counts open streams, and on shutdown past the grace ends them as shutdown', async () => {
    const h = await harness();
    const counts: number[] = [];
    const socket = join(mkdtempSync(join(tmpdir(), 'gw-extproc-')), 'p.sock');
    const server = await startExtProcServer(h.pipeline, { socketPath: socket }, NO_FAILURES, (count) => counts.push(count), transport);
    expect(server.address).toBe(`unix:${socket}`);
    const client = new grpc.Client(server.address, grpc.credentials.createInsecure());
    clients.push(client);
    const call = openProcessStream(client);
    const answers: ProcessingResponse[] = [];
    call.on('data', (r: ProcessingResponse) => answers.push(r));
    call.on('error', () => undefined);
    call.write(requestHeaders());
    await vi.waitFor(() => expect(answers.map((a) => a.response)).toEqual(['request_headers']));
    expect(server.inFlight()).toBe(1);
    expect(counts).toEqual([1]);

    await server.shutdown(50);
    expect(server.inFlight()).toBe(0);
    expect(counts).toEqual([1, 0]);
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record?.outcome).toBe('shutdown');
  });

  it('shuts down at once when no stream is open', async () => {
    const h = await harness();
    const server = await startExtProcServer(h.pipeline, { host: '127.0.0.1', port: 0 }, NO_FAILURES, undefined, transport);
    await server.shutdown(60_000);
    expect(server.inFlight()).toBe(0);
  });
});
