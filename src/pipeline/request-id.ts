import { randomFillSync } from 'node:crypto';

/** Ids drawn per refill of the pool: one call into the CSPRNG per 256 requests. */
const IDS_PER_POOL = 256;
const ID_BYTES = 16;
const pool = Buffer.alloc(IDS_PER_POOL * ID_BYTES);
let next = pool.length;
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * `req_` and 128 random bits as 32 lowercase hex digits, from a pooled buffer
 * spelled out in JS. randomUUID with its dashes removed cost ~5.5 µs a request
 * in gw serve's profile under load (three calls into Node's crypto internals
 * and a copy of the string); this ~0.6 (docs/benchmarks.md, "Point 2,
 * per-request fixed costs").
 */
export function newRequestId(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  let id = 'req_';
  for (const end = next + ID_BYTES; next < end; next++) id += HEX[pool[next] as number] as string;
  return id;
}
