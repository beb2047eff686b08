import * as grpc from '@grpc/grpc-js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { ProcessStream } from './process-stream.js';
import { ObserverStream, type ObserveRegistry } from './observe-stream.js';
import { EXTPROC_ROLE_METADATA, EXTPROC_ROLES } from '../envoy/observe.js';
import { processorService, type ExternalProcessorHandlers } from './proto.js';
import type { ProcessCall } from './process-call.js';
import { startH2ProcessServer } from './h2-transport.js';

import type { GrpcTransport } from '../config/serve-config.js';

/** Request bodies reach tens of MB; Envoy's buffer limit is the real cap. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface ExtProcServer {
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
  transport: GrpcTransport = 'grpc-js',
): Promise<ExtProcServer> {
  const active = new Set<ProcessStream>();
  const observers = new Set<ObserverStream>();
  // Deciding streams waiting for (or fed by) their request's observing stream.
  const registry: ObserveRegistry = new Map();
  const logFailure = (message: string, error: unknown): void => logger.error({ detail: error instanceof Error ? error.message : String(error) }, message);
  const onCall = (call: ProcessCall): void => {
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
  };
  const target = 'socketPath' in bind ? `unix:${bind.socketPath}` : `${bind.host.includes(':') ? `[${bind.host}]` : bind.host}:${bind.port}`;
  const abortAll = (): void => {
    for (const stream of [...active]) stream.abort();
    for (const observer of [...observers]) observer.release();
  };
  /** Stops taking new streams; open ones (long answers) may finish until the deadline, then are aborted. */
  const graceful = async (drained: Promise<void>, graceMs: number, force: () => void): Promise<void> => {
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    if ((await Promise.race([drained, timer])) === 'timeout') {
      abortAll();
      force();
    }
  };
  if (transport === 'http2') {
    const h2 = await startH2ProcessServer(bind, { maxMessageBytes: MAX_MESSAGE_BYTES, onCall });
    return {
      address: 'socketPath' in bind ? target : `${bind.host}:${h2.port}`,
      inFlight: () => active.size,
      shutdown: (graceMs) => graceful(h2.close(), graceMs, () => h2.destroy()),
    };
  }
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    'grpc.keepalive_permit_without_calls': 1,
  });
  const handlers: ExternalProcessorHandlers = { Process: onCall };
  server.addService(processorService, handlers);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error, boundPort) => (error ? reject(error) : resolve(boundPort))));
  const address = 'socketPath' in bind ? target : `${bind.host}:${port}`;
  return {
    address,
    inFlight: () => active.size,
    shutdown: (graceMs) => graceful(new Promise<void>((resolve) => server.tryShutdown(() => resolve())), graceMs, () => server.forceShutdown()),
  };
}
