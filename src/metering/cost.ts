import type { Price } from '../models/price.js';
import type { Usage } from './usage.js';

/** Cost in USD, rounded to a millionth of a dollar; null when the model has no known price. */
export function costOf(usage: Usage, price: Price | undefined): number | null {
  if (!price) return null;
  const m5 = usage.cache_creation_5m_input_tokens;
  const h1 = usage.cache_creation_1h_input_tokens;
  let write5m: number;
  let write1h: number;
  if (m5 === null && h1 === null) {
    // No TTL split given: the 5-minute TTL is the upstream's default.
    write5m = usage.cache_creation_input_tokens;
    write1h = 0;
  } else {
    write1h = h1 ?? 0;
    write5m = m5 ?? Math.max(0, usage.cache_creation_input_tokens - write1h);
  }
  const micro = usage.input_tokens * price.input + usage.output_tokens * price.output + write5m * price.cacheWrite5m + write1h * price.cacheWrite1h + usage.cache_read_input_tokens * price.cacheRead;
  return Math.round(micro) / 1e6;
}
