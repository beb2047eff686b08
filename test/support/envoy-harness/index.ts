/**
 * An HTTP front that behaves like Envoy's ext_proc filter followed by the
 * router, driving a real ext_proc processor over gRPC. See docs/extproc.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { Agent } from 'undici';
import { newStats, resolveOptions, type AccessLogEntry, type EnvoyHarnessOptions, type EnvoyHarnessStats } from './options.js';
import { compileJsonFormat } from './access-log-format.js';
import { OverloadManager } from './overload.js';
import { RequestFlow } from './request-flow.js';
import { codecReply } from './codec-reply.js';

export { splitEvery, splitSeeded } from './chunking.js';
export { HeaderMap } from './header-map.js';
export type { MutationRules } from './header-mutation.js';
export type { AccessLogEntry, ChunkSplitter, EnvoyHarnessOptions, EnvoyHarnessStats, ResponseChunking } from './options.js';
export { GATEWAY_PROCESSING_MODE, type HarnessProcessingMode } from './processing-mode.js';
export { ACTIONS as OVERLOAD_ACTIONS, readOverloadConfig, type OverloadConfig, type OverloadManager } from './overload.js';

export interface EnvoyHarness {
  /** Base URL of the HTTP front, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Live counters (Envoy's ext_proc stat names). */
  stats: EnvoyHarnessStats;
  /** One entry per finished request, in completion order. */
  accessLog: AccessLogEntry[];
  /** With accessLogFormat: Envoy's access log, one JSON line per finished request. */
  accessLogLines: string[];
  /** With overload: the overload manager (a test drives its modelled heap). */
  overload: OverloadManager | undefined;
  /** Resolves once no request is in flight (the access log is then complete). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

function grpcTarget(processor: string): string {
  return processor.startsWith('/') ? `unix:${processor}` : processor;
}

export async function startEnvoyHarness(options: EnvoyHarnessOptions): Promise<EnvoyHarness> {
  const resolved = resolveOptions(options);
  const stats = newStats();
  const accessLog: AccessLogEntry[] = [];
  const accessLogLines: string[] = [];
  // Compiled now: an operator the harness does not model fails the start, not a request.
  const formatLine = resolved.accessLogFormat ? compileJsonFormat(resolved.accessLogFormat) : undefined;
  const overload = resolved.overload ? new OverloadManager(resolved.overload) : undefined;
  const inFlight = new Set<Promise<void>>();
  const client = new grpc.Client(grpcTarget(resolved.processor), grpc.credentials.createInsecure());
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });

  // max_request_headers_kb is Node's maxHeaderSize, request_headers_timeout its headersTimeout;
  // both refusals come back through clientError (codec-reply.ts). Node's own whole-request
  // timeout is off: request_timeout is the flow's. maxHeadersCount 0 lets the flow count every
  // field (Node would silently keep only the first 2000).
  const headersTimeout = resolved.requestHeadersTimeoutMs ?? 0;
  const server = createServer(
    {
      maxHeaderSize: resolved.maxRequestHeadersKb * 1024,
      headersTimeout,
      requestTimeout: 0,
      ...(headersTimeout > 0 ? { connectionsCheckingInterval: Math.max(20, Math.min(30_000, headersTimeout / 4)) } : {}),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      const flow = new RequestFlow(req, res, { options: resolved, client, dispatcher, stats, overload, formatLine });
      const done = flow.run().then(
        ({ entry, line }) => {
          accessLog.push(entry);
          if (line !== undefined) accessLogLines.push(line);
        },
        (err: unknown) => {
          // A harness bug, not an Envoy behaviour: make it loud in the test output.
          console.error('envoy-harness: request failed inside the harness', err);
        },
      );
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    },
  );
  server.maxHeadersCount = 0;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => codecReply(error, socket, resolved.localReplyConfig));
  const maxConnections = resolved.overload?.maxActiveDownstreamConnections;
  if (maxConnections !== undefined && overload) {
    // global_downstream_max_connections: past the limit Envoy closes a new connection as it
    // is accepted (overload_manager.rst, "Limiting Active Connections").
    let active = 0;
    server.on('connection', (socket) => {
      if (active >= maxConnections) {
        overload.stats.downstream_global_cx_overflow += 1;
        socket.destroy();
        return;
      }
      active += 1;
      socket.once('close', () => (active -= 1));
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const idle = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    accessLog,
    accessLogLines,
    overload,
    idle,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await idle();
      overload?.close();
      client.close();
      await dispatcher.close();
    },
  };
}
