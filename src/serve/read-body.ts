import type { IncomingMessage } from 'node:http';

export type BodyRead = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly reason: 'too_large' | 'aborted' | 'too_slow' };

export interface BodyRateFloor {
  readonly minBytesPerSecond: number;
  readonly windowMs: number;
}

/**
 * Buffer the request body up to `limit` bytes; stop reading as soon as it is
 * exceeded, or as soon as a whole window passes with fewer bytes than the
 * rate floor asks (a stalled upload must not hold its caller slot). A declared
 * content-length over the limit never gets here: the pipeline refuses it with
 * the request headers, before the body is read.
 */
export function readBody(req: IncomingMessage, limit: number, floor?: BodyRateFloor): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let sizeAtWindowStart = 0;
    let settled = false;
    // A body that has fully arrived (a small one often comes in the same packet as the head) cannot stall:
    // no bytes are awaited, so no timer is armed for it.
    const timer =
      floor === undefined || req.complete
        ? null
        : setInterval(() => {
            if (size - sizeAtWindowStart < (floor.minBytesPerSecond * floor.windowMs) / 1000) {
              req.pause();
              settle({ ok: false, reason: 'too_slow' });
            }
            sizeAtWindowStart = size;
          }, floor.windowMs);
    timer?.unref();
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      if (timer) clearInterval(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onAbort = (): void => settle({ ok: false, reason: 'aborted' });
    const onClose = (): void => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
  });
}
