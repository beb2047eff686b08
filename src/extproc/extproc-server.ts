import * as grpc from '@grpc/grpc-js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { ProcessStream } from './process-stream.js';
import { ObserverStream, type ObserveRegistry } from './observe-stream.js';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES } from '../envoy/observe.js';
import { processorService, type ExternalProcessorHandlers } from './proto.js';

export interface ExtProcServer {
  readonly server: grpc.Server;
  /** The address actually bound (`host:port`, or `unix:/path`). */
  readonly address: string;
  inFlight(): number;
  shutdown(graceMs: number): Promise<void>;
}

/** The ext_proc gRPC service: one Process stream per HTTP request Envoy carries. */
export async function startExtProcServer(
  pipeline: Pipeline,
  bind: { host: string; port: number } | { socketPath: string },
  logger: { error(fields: { detail: string }, message: string): void },
  onInFlight?: (n: number) => void,
): Promise<ExtProcServer> {
  const server = new grpc.Server({
    // Request bodies reach tens of MB; Envoy's buffer limit is the real cap.
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.max_send_message_length': 64 * 1024 * 1024,
    'grpc.keepalive_permit_without_calls': 1,
  });
  const active = new Set<ProcessStream>();
  const observers = new Set<ObserverStream>();
  // Deciding streams waiting for (or fed by) their request's observing stream.
  const registry: ObserveRegistry = new Map();
  const logFailure = (message: string, error: unknown): void => logger.error({ detail: error instanceof Error ? error.message : String(error) }, message);
  const handlers: ExternalProcessorHandlers = {
    Process: (call) => {
      if (call.metadata.get(EXTPROC_ROLE_METADATA)[0] === EXTPROC_ROLES.observe) {
        observers.add(new ObserverStream(call, registry, (o) => observers.delete(o)));
        return;
      }
      const stream = new ProcessStream(
        call,
        pipeline,
        (s) => {
          active.delete(s);
          onInFlight?.(active.size);
        },
        logFailure,
        registry,
      );
      active.add(stream);
      onInFlight?.(active.size);
    },
  };
  server.addService(processorService, handlers);
  const target = 'socketPath' in bind ? `unix:${bind.socketPath}` : `${bind.host.includes(':') ? `[${bind.host}]` : bind.host}:${bind.port}`;
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error, boundPort) => (error ? reject(error) : resolve(boundPort))));
  const address = 'socketPath' in bind ? target : `${bind.host}:${port}`;
  return {
    server,
    address,
    inFlight: () => active.size,
    async shutdown(graceMs: number): Promise<void> {
      // Stop taking new streams; open ones (long answers) may finish until the deadline.
      const drained = new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
      if ((await Promise.race([drained, timer])) === 'timeout') {
        for (const stream of [...active]) stream.abort();
        for (const observer of [...observers]) observer.release();
        server.forceShutdown();
      }
    },
  };
}
