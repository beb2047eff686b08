// Secret scanning for the data planes: every byte of every body is scanned
// (no time budget; a body is never forwarded unscanned), and bodies large
// enough to hold the event loop for more than a millisecond or two are
// scanned in a pool of worker threads, so that other requests, streams and
// health checks keep being served meanwhile.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { redactJsonBody } from '../redaction/index.js';
import type { RedactionOutcome, RedactorPort } from '../pipeline/ports.js';

/** Bodies up to this size are scanned inline: at ≥ 50 MB/s that is about a millisecond. */
export const INLINE_MAX_BYTES = 64 * 1024;

interface Pending {
  readonly resolve: (outcome: RedactionOutcome) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  readonly pending: Map<number, Pending>;
}

export interface RedactionPoolOptions {
  /** Worker threads (default: available cores, at most 4). */
  readonly workers?: number;
  /** Bodies larger than this go to a worker (default INLINE_MAX_BYTES). */
  readonly inlineMaxBytes?: number;
  /** The compiled worker script (default: beside this module, or under dist/ when run from sources). */
  readonly workerUrl?: URL;
}

function defaultWorkerUrl(): URL {
  const beside = new URL('./redaction-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // Run from TypeScript sources (tests): the compiled worker lives in dist/.
  return new URL('../../dist/runtime/redaction-worker.js', import.meta.url);
}

export class RedactionPool {
  private readonly slots: Slot[] = [];
  private readonly workerCount: number;
  readonly inlineMaxBytes: number;
  private readonly workerUrl: URL;
  private nextId = 1;
  private next = 0;
  private closed = false;

  constructor(options: RedactionPoolOptions = {}) {
    this.inlineMaxBytes = options.inlineMaxBytes ?? INLINE_MAX_BYTES;
    this.workerUrl = options.workerUrl ?? defaultWorkerUrl();
    this.workerCount = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
  }

  /** The port the pipeline calls. */
  readonly redact: RedactorPort = (body) => {
    if (body.length <= this.inlineMaxBytes) {
      const { body: out, countsByRule } = redactJsonBody(body);
      return Promise.resolve({ body: out, countsByRule });
    }
    return this.inWorker(body);
  };

  private inWorker(body: Buffer): Promise<RedactionOutcome> {
    if (this.closed) return Promise.reject(new Error('the redaction pool is closed'));
    // Workers start with the first body that needs one: each is a V8 isolate of its own (~10 MB
    // resident), and most processes never scan a body that large, or scan nothing at all. The
    // first such body waits for the start (tens of ms); messages posted meanwhile are queued.
    while (this.slots.length < this.workerCount) this.slots.push(this.spawn());
    // Least loaded worker, round robin among equals.
    let best = this.slots[this.next % this.slots.length]!;
    for (const s of this.slots) if (s.pending.size < best.pending.size) best = s;
    this.next++;
    const id = this.nextId++;
    const copy = new Uint8Array(body.byteLength);
    copy.set(body);
    return new Promise<RedactionOutcome>((resolve, reject) => {
      best.pending.set(id, { resolve, reject });
      best.worker.postMessage({ id, body: copy }, [copy.buffer]);
    });
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.workerUrl), pending: new Map() };
    this.attach(slot);
    return slot;
  }

  private attach(slot: Slot): void {
    const { worker } = slot;
    worker.unref();
    worker.on('message', (msg: { id: number; body?: Uint8Array; countsByRule?: Record<string, number>; error?: string }) => {
      const p = slot.pending.get(msg.id);
      if (p === undefined) return;
      slot.pending.delete(msg.id);
      if (msg.error !== undefined || msg.body === undefined) p.reject(new Error(`secret scan failed: ${msg.error ?? 'no result'}`));
      else p.resolve({ body: Buffer.from(msg.body.buffer, msg.body.byteOffset, msg.body.byteLength), countsByRule: msg.countsByRule ?? {} });
    });
    // A worker that dies fails its bodies (they are not forwarded) and is replaced.
    const failAll = (error: Error): void => {
      for (const p of slot.pending.values()) p.reject(error);
      slot.pending.clear();
    };
    worker.on('error', (error) => failAll(new Error(`secret scan worker failed: ${error.message}`)));
    worker.on('exit', () => {
      failAll(new Error('secret scan worker exited'));
      if (!this.closed) {
        slot.worker = new Worker(this.workerUrl);
        this.attach(slot);
      }
    });
  }

  /** Worker threads started so far (none until the first body too large to scan inline). */
  get workersStarted(): number {
    return this.slots.length;
  }

  /** Asks each started worker for a full collection (the process has gone quiet; idle-memory.ts). */
  collectGarbage(): void {
    for (const s of this.slots) s.worker.postMessage({ collect: true });
  }

  /** Number of bodies waiting for or in a worker. */
  get inFlight(): number {
    let n = 0;
    for (const s of this.slots) n += s.pending.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
