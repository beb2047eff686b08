/**
 * Test doubles for the harness tests: a scripted ext_proc processor (a real
 * @grpc/grpc-js server), a mock upstream (node:http) and a small client that
 * reports resets instead of throwing.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterEach } from 'vitest';
import { externalProcessorService, type ExternalProcessorHandlers, type ProcessingRequest, type ProcessingResponse, type ProcessServerStream } from '../../../src/extproc/proto.js';
import { startEnvoyHarness, type EnvoyHarness, type EnvoyHarnessOptions } from '../../support/envoy-harness/index.js';

// ------------------------------------------------------------ processor --

export interface ProcessorCall {
  readonly index: number;
  readonly received: ProcessingRequest[];
  /** The client reset the call (Envoy's close, or a cancel). */
  cancelled: boolean;
  /** The client half-closed its side. */
  halfClosed: boolean;
  send(response: ProcessingResponse): void;
  /** Close our side with OK. */
  finish(): void;
  fail(code: grpc.status, details: string): void;
  /** Resolves when the call is over from the processor's point of view. */
  readonly over: Promise<void>;
}

export type Script = (message: ProcessingRequest, call: ProcessorCall) => void | Promise<void>;

export interface ScriptedProcessor {
  address: string;
  calls: ProcessorCall[];
  close(): Promise<void>;
}

/** An answer that changes nothing, of the kind that matches `message`. */
export function pass(message: ProcessingRequest): ProcessingResponse {
  switch (message.request) {
    case 'request_headers':
      return { request_headers: {} };
    case 'request_body':
      return { request_body: {} };
    case 'response_headers':
      return { response_headers: {} };
    case 'response_body':
      return { response_body: {} };
    default:
      throw new Error(`no pass answer for ${message.request ?? 'an empty message'}`);
  }
}

export const passAll: Script = (message, call) => call.send(pass(message));

export async function startScriptedProcessor(script: Script, bindTo = '127.0.0.1:0'): Promise<ScriptedProcessor> {
  const calls: ProcessorCall[] = [];
  const handlers: ExternalProcessorHandlers = {
    Process(stream: ProcessServerStream) {
      let markOver: () => void = () => undefined;
      const over = new Promise<void>((resolve) => {
        markOver = resolve;
      });
      const call: ProcessorCall = {
        index: calls.length,
        received: [],
        cancelled: false,
        halfClosed: false,
        over,
        send: (response) => {
          if (!call.cancelled) stream.write(response);
        },
        finish: () => {
          stream.end();
          markOver();
        },
        fail: (code, details) => {
          stream.emit('error', { code, details, name: 'Error', message: details });
          markOver();
        },
      };
      calls.push(call);
      // Scripts may be async; keep each call's messages in arrival order.
      let queue: Promise<void> = Promise.resolve();
      stream.on('data', (message: ProcessingRequest) => {
        call.received.push(message);
        queue = queue
          .then(() => script(message, call))
          .catch((err: unknown) => {
            console.error('scripted processor: script threw', err);
          });
      });
      stream.on('end', () => {
        call.halfClosed = true;
      });
      stream.on('cancelled', () => {
        call.cancelled = true;
        markOver();
      });
      stream.on('error', () => markOver());
      stream.on('finish', () => markOver());
    },
  };
  const server = new grpc.Server();
  server.addService(externalProcessorService, handlers);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(bindTo, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  const address = bindTo.startsWith('unix:') ? bindTo.slice('unix:'.length) : `127.0.0.1:${port}`;
  return {
    address,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        // Calls the harness left open would keep tryShutdown waiting.
        setTimeout(() => server.forceShutdown(), 500).unref();
      }),
  };
}

// ------------------------------------------------------------- upstream --

export interface UpstreamRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export type UpstreamHandler = (req: UpstreamRequest, res: ServerResponse) => void | Promise<void>;

export interface MockUpstream {
  url: string;
  requests: UpstreamRequest[];
  /** Requests whose client (the harness) went away before the response ended. */
  abandoned: number;
  close(): Promise<void>;
}

export function jsonReply(name: string): UpstreamHandler {
  return (req, res) => {
    const body = JSON.stringify({ upstream: name, path: req.url, body: req.body.toString() });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

export async function startUpstream(name: string, handler: UpstreamHandler = jsonReply(name)): Promise<MockUpstream> {
  const upstream: MockUpstream = {
    url: '',
    requests: [],
    abandoned: 0,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const recorded: UpstreamRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(parts),
      };
      upstream.requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) upstream.abandoned += 1;
      });
      void Promise.resolve(handler(recorded, res)).catch((err: unknown) => {
        console.error('mock upstream: handler threw', err);
        res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return upstream;
}

// --------------------------------------------------------------- client --

export interface ClientResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The connection closed before the response was complete. */
  reset: boolean;
}

export interface ClientRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[]>;
  /** Written in these pieces, so the harness sees a multi-chunk body. */
  body?: string | Buffer | (string | Buffer)[];
}

export function send(base: string, r: ClientRequest = {}): Promise<ClientResponse> {
  const pieces = r.body === undefined ? [] : Array.isArray(r.body) ? r.body : [r.body];
  const total = pieces.reduce((n, p) => n + Buffer.byteLength(p), 0);
  const headers: Record<string, string | string[]> = { ...r.headers };
  if (pieces.length > 0 && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(total);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(r.path ?? '/v1/messages', base), { method: r.method ?? 'POST', headers });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') resolve({ status: 0, headers: {}, body: Buffer.alloc(0), reset: true });
      else reject(err);
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), reset: false }));
      const cut = (): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), reset: true });
      res.on('error', cut);
      res.on('close', () => {
        if (!res.complete) cut();
      });
    });
    const write = async (): Promise<void> => {
      for (const piece of pieces) {
        req.write(piece);
        await new Promise((r2) => setImmediate(r2));
      }
      req.end();
    };
    void write();
  });
}

/** A processor address where nothing listens. */
export async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

export function headerValues(message: ProcessingRequest | undefined): [string, string][] {
  const map = message?.request_headers ?? message?.response_headers;
  return (map?.headers?.headers ?? []).map((h) => [h.key ?? '', h.raw_value?.toString('latin1') ?? '']);
}

export const raw = (key: string, value: string) => ({ header: { key, raw_value: Buffer.from(value) } });

// ------------------------------------------------------------------ rig --

export interface Rig {
  harness: EnvoyHarness;
  processor: ScriptedProcessor;
  upstreams: Record<string, MockUpstream>;
  /** Shorthand for send(harness.url, r). */
  send(r?: ClientRequest): Promise<ClientResponse>;
}

/**
 * Processor + upstreams `vendor` (the default route) and `provider_a` +
 * harness. Everything started is closed after the test.
 */
export function useRig(): (script: Script, options?: Partial<EnvoyHarnessOptions>, handlers?: Record<string, UpstreamHandler>) => Promise<Rig> {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return async (script, options = {}, handlers = {}) => {
    const processor = await startScriptedProcessor(script);
    closers.push(() => processor.close());
    const upstreams: Record<string, MockUpstream> = {};
    for (const name of ['vendor', 'provider_a']) {
      const upstream = await startUpstream(name, handlers[name]);
      closers.push(() => upstream.close());
      upstreams[name] = upstream;
    }
    const harness = await startEnvoyHarness({
      processor: processor.address,
      clusters: Object.fromEntries(Object.entries(upstreams).map(([n, u]) => [n, u.url])),
      defaultCluster: 'vendor',
      messageTimeoutMs: 5_000,
      ...options,
    });
    closers.push(() => harness.close());
    return { harness, processor, upstreams, send: (r) => send(harness.url, r) };
  };
}
