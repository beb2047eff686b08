/**
 * An HTTP front that behaves like Envoy's ext_proc filter followed by the
 * router, driving a real ext_proc processor over gRPC. See docs/extproc.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { Agent } from 'undici';
import { newStats, resolveOptions, type AccessLogEntry, type EnvoyHarnessOptions, type EnvoyHarnessStats } from './options.js';
import { RequestFlow } from './request-flow.js';

export { splitEvery, splitSeeded } from './chunking.js';
export { HeaderMap } from './header-map.js';
export type { MutationRules } from './header-mutation.js';
export type {
  AccessLogEntry,
  ChunkSplitter,
  EnvoyHarnessOptions,
  EnvoyHarnessStats,
  ResponseChunking,
} from './options.js';
export { GATEWAY_PROCESSING_MODE, type HarnessProcessingMode } from './processing-mode.js';

export interface EnvoyHarness {
  /** Base URL of the HTTP front, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Live counters (Envoy's ext_proc stat names). */
  stats: EnvoyHarnessStats;
  /** One entry per finished request, in completion order. */
  accessLog: AccessLogEntry[];
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
  const inFlight = new Set<Promise<void>>();
  const client = new grpc.Client(grpcTarget(resolved.processor), grpc.credentials.createInsecure());
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });

  // Envoy's max_request_headers_kb default: 60 KiB (api/envoy/extensions/filters/network/
  // http_connection_manager/v3/http_connection_manager.proto); larger headers get 431.
  const server = createServer({ maxHeaderSize: 60 * 1024 }, (req: IncomingMessage, res: ServerResponse) => {
    const flow = new RequestFlow(req, res, { options: resolved, client, dispatcher, stats });
    const done = flow.run().then(
      (entry) => {
        accessLog.push(entry);
      },
      (err: unknown) => {
        // A harness bug, not an Envoy behaviour: make it loud in the test output.
        console.error('envoy-harness: request failed inside the harness', err);
      },
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
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
    idle,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await idle();
      client.close();
      await dispatcher.close();
    },
  };
}
