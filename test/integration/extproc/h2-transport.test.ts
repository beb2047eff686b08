import * as http2 from 'node:http2';
import { connect as netConnect } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES } from '../../../src/envoy/observe.js';
import { startExtProcServer, type ExtProcServer } from '../../../src/extproc/extproc-server.js';
import { frameMessage, GrpcStatus } from '../../../src/extproc/grpc-framing.js';
import { startH2ProcessServer } from '../../../src/extproc/h2-transport.js';
import { decodeProcessingResponse, encodeProcessingRequest, openProcessStream, PROCESS_METHOD_PATH, type ProcessingRequest, type ProcessingResponse } from '../../../src/extproc/proto.js';
import { authed, harness, messagesBody, type Harness } from '../../unit/pipeline/support.js';

/**
 * The node:http2 transport (`--grpc-transport http2`) against a raw HTTP/2
 * client that can say what Envoy never would: wrong content-type, an unknown
 * method, garbage, truncated and oversized frames, a compressed flag, an
 * HTTP/1.1 request, a reset mid-call, a deadline. Every one gets a clear gRPC
 * status (or a closed connection), the server keeps serving, and a call cut
 * short runs the stream's cancel path (the request is finished and recorded).
 */

const servers: ExtProcServer[] = [];
const sessions: http2.ClientHttp2Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) session.destroy();
  for (const server of servers.splice(0)) await server.shutdown(0);
});

const failures: string[] = [];
const LOGGER = { error: (_f: { detail: string }, message: string) => void failures.push(message) };

async function serve(): Promise<{ server: ExtProcServer; h: Harness; port: number }> {
  const h = await harness();
  const server = await startExtProcServer(h.pipeline, { host: '127.0.0.1', port: 0 }, LOGGER, undefined, 'http2');
  servers.push(server);
  return { server, h, port: Number(server.address.split(':')[1]) };
}

function connect(port: number, settings: http2.Settings = {}): http2.ClientHttp2Session {
  const session = http2.connect(`http://127.0.0.1:${port}`, { settings });
  session.on('error', () => undefined);
  sessions.push(session);
  return session;
}

interface Outcome {
  headers: http2.IncomingHttpHeaders;
  trailers: http2.IncomingHttpHeaders;
  messages: ProcessingResponse[];
}

function request(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders = {}): http2.ClientHttp2Stream {
  const stream = session.request({ ':method': 'POST', ':path': PROCESS_METHOD_PATH, 'content-type': 'application/grpc', te: 'trailers', ...headers });
  stream.on('error', () => undefined);
  return stream;
}

/** Everything the server answers on the stream until it closes. */
function outcome(stream: http2.ClientHttp2Stream): Promise<Outcome> {
  return new Promise((resolve) => {
    const result: Outcome = { headers: {}, trailers: {}, messages: [] };
    let data = Buffer.alloc(0);
    stream.on('response', (h) => (result.headers = h));
    stream.on('trailers', (t) => (result.trailers = t));
    stream.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      while (data.length >= 5 && data.length >= 5 + data.readUInt32BE(1)) {
        const length = data.readUInt32BE(1);
        result.messages.push(decodeProcessingResponse(data.subarray(5, 5 + length)));
        data = data.subarray(5 + length);
      }
    });
    stream.on('close', () => resolve(result));
  });
}

/** grpc-status wherever the server put it: in trailers, or in the headers of a trailers-only response. */
function statusOf(o: Outcome): { code: number; message: string } {
  const source = o.trailers['grpc-status'] !== undefined ? o.trailers : o.headers;
  return { code: Number(source['grpc-status']), message: decodeURIComponent(String(source['grpc-message'] ?? '')) };
}

const framed = (message: ProcessingRequest): Buffer => frameMessage(encodeProcessingRequest(message));

function requestHeaders(endOfStream = false): ProcessingRequest {
  const fields = { ':method': 'POST', ':path': '/v1/messages', ...authed() } as Record<string, string>;
  return { request_headers: { headers: { headers: Object.entries(fields).map(([key, value]) => ({ key, raw_value: Buffer.from(value) })) }, end_of_stream: endOfStream } };
}

/** The server still answers a well-formed call (from grpc-js, Envoy's kind of client). */
async function stillServes(server: ExtProcServer): Promise<void> {
  const client = new grpc.Client(server.address, grpc.credentials.createInsecure());
  try {
    const call = openProcessStream(client);
    const first = new Promise<ProcessingResponse>((resolve, reject) => {
      call.on('data', resolve);
      call.on('error', reject);
    });
    call.write(requestHeaders());
    expect((await first).response).toBe('request_headers');
    call.cancel();
  } finally {
    client.close();
  }
}

describe('the node:http2 gRPC transport', () => {
  it('answers over one stream: headers once, the messages, then grpc-status 0 in trailers', async () => {
    const { port } = await serve();
    const stream = request(connect(port));
    const done = outcome(stream);
    stream.end(Buffer.concat([framed(requestHeaders()), framed({ request_body: { body: messagesBody(), end_of_stream: true } })]));
    const o = await done;
    expect(o.headers[':status']).toBe(200);
    expect(o.headers['content-type']).toBe('application/grpc');
    expect(o.messages.map((m) => m.response)).toEqual(['request_headers', 'request_body']);
    expect(statusOf(o)).toEqual({ code: GrpcStatus.OK, message: '' });
  });

  it('reads a message cut into single-byte DATA frames, and several messages in one frame', async () => {
    const { port } = await serve();
    const stream = request(connect(port));
    const done = outcome(stream);
    const bytes = framed(requestHeaders());
    for (let i = 0; i < bytes.length; i++) stream.write(bytes.subarray(i, i + 1));
    await vi.waitFor(() => expect(stream.bufferSize).toBe(0));
    const chunks = Buffer.concat([
      framed({ request_body: { body: messagesBody(), end_of_stream: true } }),
      framed({ response_headers: { headers: { headers: [{ key: ':status', raw_value: Buffer.from('200') }] } } }),
    ]);
    stream.end(chunks);
    const o = await done;
    expect(o.messages.map((m) => m.response)).toEqual(['request_headers', 'request_body', 'response_headers']);
  });

  it('answers a content-type that is not gRPC with 415, another method with 405, another path with UNIMPLEMENTED (trailers-only)', async () => {
    const { port, server } = await serve();
    const session = connect(port);
    const json = await outcome(request(session, { 'content-type': 'application/json' }).end('{}'));
    expect(json.headers[':status']).toBe(415);
    expect(statusOf(json).message).toBe('content-type must be application/grpc, got application/json');
    const get = await outcome(request(session, { ':method': 'GET' }).end());
    expect(get.headers[':status']).toBe(405);
    const other = await outcome(request(session, { ':path': '/envoy.service.ext_proc.v3.ExternalProcessor/Other' }).end(framed(requestHeaders())));
    expect(other.headers[':status']).toBe(200);
    expect(other.headers['grpc-status']).toBe(String(GrpcStatus.UNIMPLEMENTED));
    expect(statusOf(other).message).toMatch(/^unknown method \/envoy\.service\.ext_proc\.v3\.ExternalProcessor\/Other/);
    expect(other.trailers).toEqual({});
    // application/grpc+proto is gRPC too.
    const proto = await outcome(request(session, { 'content-type': 'application/grpc+proto' }).end(framed(requestHeaders(true))));
    expect(proto.messages.length).toBe(1);
    await stillServes(server);
  });

  it('refuses a compressed message, a huge declared length, garbage and a truncated prefix, each with its status', async () => {
    const { port, server } = await serve();
    const session = connect(port);
    const compressed = Buffer.from(framed(requestHeaders()));
    compressed[0] = 1;
    expect(statusOf(await outcome(request(session).end(compressed))).code).toBe(GrpcStatus.UNIMPLEMENTED);

    // 2 GiB declared, not one byte of it sent, the stream left open: refused from the prefix at once.
    const huge = request(session);
    const hugeOutcome = outcome(huge);
    huge.write(Buffer.from([0, 0x80, 0, 0, 0]));
    const hugeStatus = statusOf(await hugeOutcome);
    expect(hugeStatus).toEqual({ code: GrpcStatus.RESOURCE_EXHAUSTED, message: `received message larger than max (${0x80000000} vs. ${64 * 1024 * 1024})` });

    const garbage = statusOf(await outcome(request(session).end(frameMessage(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])))));
    expect(garbage.code).toBe(GrpcStatus.INTERNAL);
    expect(garbage.message).toMatch(/^could not parse the ProcessingRequest/);

    const truncated = statusOf(await outcome(request(session).end(Buffer.from([0, 0, 0]))));
    expect(truncated).toEqual({ code: GrpcStatus.INTERNAL, message: 'the request stream ended inside a message (3 bytes of an incomplete message)' });
    expect(failures).toEqual([]);
    await stillServes(server);
  });

  it('closes an HTTP/1.1 connection and raw garbage instead of the preface, and keeps serving', async () => {
    const { port, server } = await serve();
    for (const text of ['POST /envoy.service.ext_proc.v3.ExternalProcessor/Process HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', '\x00\xff\x13garbage'.repeat(100)]) {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = netConnect(port, '127.0.0.1');
        let got = '';
        socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
        socket.on('close', () => resolve(got));
        socket.on('error', reject);
        socket.end(text);
      });
      // Not an HTTP/1.1 answer: HTTP/2 frames (SETTINGS, GOAWAY), then the close.
      expect(reply.startsWith('HTTP/1.1')).toBe(false);
    }
    await stillServes(server);
  });

  it('a reset mid-call and a connection that goes both run the cancel path: the request finishes as client_disconnect', async () => {
    const { port, server, h } = await serve();
    const session = connect(port);
    const reset = request(session);
    const resetAnswer = new Promise((resolve) => reset.once('data', resolve));
    reset.write(framed(requestHeaders()));
    await resetAnswer;
    expect(server.inFlight()).toBe(1);
    reset.close(http2.constants.NGHTTP2_CANCEL);
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record?.outcome).toBe('client_disconnect');
    expect(server.inFlight()).toBe(0);

    const other = connect(port);
    const open = request(other);
    const openAnswer = new Promise((resolve) => open.once('data', resolve));
    open.write(framed(requestHeaders()));
    await openAnswer;
    other.destroy();
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(2));
    expect(h.events.finished[1]?.record?.outcome).toBe('client_disconnect');
    expect(server.inFlight()).toBe(0);
  });

  it("tells the handler of a reset or a lost connection with 'cancelled', never as the peer's half-close ('end')", async () => {
    const calls: Array<{ events: string[] }> = [];
    const h2 = await startH2ProcessServer(
      { host: '127.0.0.1', port: 0 },
      {
        maxMessageBytes: 1024,
        onCall: (call) => {
          const seen = { events: [] as string[] };
          calls.push(seen);
          for (const event of ['data', 'end', 'cancelled'] as const) call.on(event, () => seen.events.push(event));
        },
      },
    );
    try {
      const session = connect(h2.port);
      const lost = request(session);
      lost.write(framed(requestHeaders()));
      await vi.waitFor(() => expect(calls[0]?.events).toEqual(['data']));
      session.destroy();
      await vi.waitFor(() => expect(calls[0]?.events).toEqual(['data', 'cancelled']));

      const halfClosed = request(connect(h2.port));
      halfClosed.end(framed(requestHeaders()));
      await vi.waitFor(() => expect(calls[1]?.events).toEqual(['data', 'end']));
    } finally {
      await Promise.race([h2.close(), new Promise((resolve) => setTimeout(resolve, 100))]);
      h2.destroy();
    }
  });

  it('answers keepalive PINGs, with and without calls open, as often as the peer sends them', async () => {
    const { port, server } = await serve();
    const session = connect(port);
    // A PING sent before the connection is up is cancelled by the client itself.
    if (session.connecting) await new Promise((resolve) => session.once('connect', resolve));
    const ping = (): Promise<number> => new Promise((resolve, reject) => session.ping((error, duration) => (error ? reject(error) : resolve(duration))));
    for (let i = 0; i < 20; i++) await ping();
    const stream = request(session);
    const done = outcome(stream);
    stream.write(framed(requestHeaders()));
    for (let i = 0; i < 20; i++) await ping();
    stream.end(framed({ request_body: { body: messagesBody(), end_of_stream: true } }));
    const o = await done;
    expect(o.messages.map((m) => m.response)).toEqual(['request_headers', 'request_body']);
    expect(statusOf(o).code).toBe(GrpcStatus.OK);
    expect(session.closed).toBe(false);
    await stillServes(server);
  });

  it('honours grpc-timeout: DEADLINE_EXCEEDED and the cancel path', async () => {
    const { port, server, h } = await serve();
    const stream = request(connect(port), { 'grpc-timeout': '200m' });
    const done = outcome(stream);
    stream.write(framed(requestHeaders()));
    const o = await done;
    expect(o.messages.map((m) => m.response)).toEqual(['request_headers']);
    expect(statusOf(o)).toEqual({ code: GrpcStatus.DEADLINE_EXCEEDED, message: 'Deadline exceeded' });
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record?.outcome).toBe('client_disconnect');
    expect(server.inFlight()).toBe(0);
  });

  it('hands the call metadata to the handler (the observe role picks the observing stream)', async () => {
    const { port, server } = await serve();
    // An observing stream answers nothing and ends OK when its request is unknown; a deciding one answers.
    const observe = await outcome(request(connect(port), { [EXTPROC_ROLE_METADATA]: EXTPROC_ROLES.observe }).end(framed(requestHeaders())));
    expect(observe.messages).toEqual([]);
    expect(statusOf(observe).code).toBe(GrpcStatus.OK);
    expect(server.inFlight()).toBe(0);
  });

  it('stops reading a peer that does not take its answers (flow control), and catches up when it does', async () => {
    const { port, h } = await serve();
    // The client's receive window is 0 bytes at first: no answer can reach it.
    const session = connect(port, { initialWindowSize: 0 });
    const stream = request(session);
    stream.write(framed(requestHeaders()));
    stream.write(framed({ request_body: { body: messagesBody({ stream: true }), end_of_stream: true } }));
    stream.write(
      framed({
        response_headers: {
          headers: {
            headers: [
              { key: ':status', raw_value: Buffer.from('200') },
              { key: 'content-type', raw_value: Buffer.from('text/event-stream') },
            ],
          },
        },
      }),
    );
    const chunk = framed({ response_body: { body: Buffer.from('data: {"type":"ping"}\n\n'), end_of_stream: false } });
    // 4,000 chunks in one write (hundreds per DATA frame): their answers (about 11 bytes each) far
    // exceed what the server buffers before write() says wait.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    stream.write(Buffer.concat(Array.from({ length: 4000 }, () => chunk)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The server stopped reading: HTTP/2 flow control leaves the client's writes queued on its side.
    expect(stream.bufferSize).toBeGreaterThan(0);
    // Open the window: every answer arrives, and the client's queue drains.
    const done = outcome(stream);
    session.settings({ initialWindowSize: 1 << 20 });
    stream.end(framed({ response_body: { body: Buffer.alloc(0), end_of_stream: true } }));
    const o = await done;
    expect(o.messages.length).toBe(3 + 4000 + 1);
    process.off('warning', onWarning);
    // One wait for 'drain' however many answers were refused meanwhile (no listener pile-up).
    expect(warnings).toEqual([]);
    expect(statusOf(o).code).toBe(GrpcStatus.OK);
    await vi.waitFor(() => expect(h.events.finished).toHaveLength(1));
    expect(h.events.finished[0]?.record?.outcome).toBe('complete');
  });

  it('on shutdown sends GOAWAY: an open call may finish within the grace, a new one is refused', async () => {
    const { port, server, h } = await serve();
    const session = connect(port);
    const stream = request(session);
    const done = outcome(stream);
    const first = new Promise((resolve) => stream.once('data', resolve));
    stream.write(framed(requestHeaders()));
    await first;
    const goaway = new Promise((resolve) => session.once('goaway', resolve));
    const stopped = server.shutdown(10_000);
    await goaway;
    // No new connection is taken while the open call finishes.
    const refused = await new Promise<string>((resolve) => {
      const socket = netConnect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    stream.end(framed({ request_body: { body: Buffer.from('{'), end_of_stream: true } }));
    const o = await done;
    expect(statusOf(o).code).toBe(GrpcStatus.OK);
    expect(o.messages.map((m) => m.response)).toEqual(['request_headers', 'immediate_response']);
    await stopped;
    expect(h.events.finished[0]?.record?.outcome).not.toBe('shutdown');
  });
});
