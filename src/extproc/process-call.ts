import type { ProcessingRequest, ProcessingResponse } from './proto.js';

/**
 * One server-side Process call as ProcessStream and ObserverStream use it,
 * whichever transport carries it: grpc-js's ServerDuplexStream has exactly
 * this surface, and the node:http2 transport (h2-transport.ts) implements
 * it. Events: 'data' (one decoded ProcessingRequest), 'end' (the peer
 * half-closed), 'cancelled' (the peer reset the stream, the connection went,
 * or the deadline passed), 'error' (the transport failed). Emitting 'error'
 * with `{ code, details }` ends the call with that gRPC status, as grpc-js
 * does; `end()` ends it with OK.
 */
export interface ProcessCall {
  readonly metadata: { get(key: string): (string | Buffer)[] };
  readonly destroyed: boolean;
  readonly writable: boolean;
  readonly writableEnded: boolean;
  on(event: 'data', listener: (message: ProcessingRequest) => void): this;
  on(event: 'end' | 'cancelled', listener: () => void): this;
  on(event: 'error', listener: (error: unknown) => void): this;
  emit(event: 'error', status: { code: number; details: string }): boolean;
  write(message: ProcessingResponse): boolean;
  end(): void;
  destroy(error?: Error): void;
}
