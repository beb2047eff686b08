import type { HeaderMap as ProtoHeaderMap, HeaderValueOption } from './proto.js';

export interface DecodedHeaders {
  /** Lower-case regular headers; repeated ones joined with ", " (as Node gives them). */
  readonly map: Record<string, string>;
  /** Pseudo-headers (`:method`, `:path`, `:status`, …). */
  readonly pseudo: Record<string, string>;
}

/** Envoy sends header values in raw_value (bytes); value is only read when raw_value is absent. */
export function decodeHeaders(headers: ProtoHeaderMap | undefined): DecodedHeaders {
  const map: Record<string, string> = {};
  const pseudo: Record<string, string> = {};
  for (const h of headers?.headers ?? []) {
    const key = (h.key ?? '').toLowerCase();
    if (key === '') continue;
    // The decoder hands out Buffers already; Buffer.from(buffer) would copy every value once more.
    const raw = h.raw_value;
    const value = raw !== undefined ? (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('latin1') : (h.value ?? '');
    if (key.startsWith(':')) pseudo[key] = value;
    else map[key] = map[key] === undefined ? value : `${map[key]}, ${value}`;
  }
  return { map, pseudo };
}

/** A header to set, replacing any existing value: raw_value only (never both value and raw_value). */
export function setHeader(key: string, value: string): HeaderValueOption {
  return { header: { key, raw_value: Buffer.from(value, 'latin1') }, append: { value: false } };
}
