// A worker thread of the redaction pool: scans whole bodies, every byte,
// off the event loop. Receives a body's bytes (transferred), answers with
// the redacted bytes (transferred back) and the counts by rule; nothing of
// the body is logged here or anywhere.
import { parentPort } from 'node:worker_threads';
import { redactJsonBody } from '../redaction/index.js';
import { fullCollection } from './idle-memory.js';

interface Job {
  readonly id: number;
  readonly body: Uint8Array;
}

/** Sent when the process has gone quiet (idle-memory.ts): this isolate's heap grew with the bodies it scanned. */
interface Collect {
  readonly collect: true;
}

const collect = fullCollection();

const port = parentPort;
if (port === null) throw new Error('redaction-worker must run in a worker thread');

port.on('message', (job: Job | Collect) => {
  if ('collect' in job) {
    void collect?.();
    return;
  }
  try {
    const input = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
    const result = redactJsonBody(input);
    // A body with nothing found comes back as the input; either way the
    // bytes are copied into a buffer of their own so they can be transferred.
    const out = new Uint8Array(result.body.byteLength);
    out.set(result.body);
    port.postMessage({ id: job.id, body: out, countsByRule: result.countsByRule }, [out.buffer]);
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
