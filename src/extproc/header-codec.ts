import type { HeaderMap as ProtoHeaderMap, HeaderValueOption } from './proto.js';

export interface DecodedHeaders {
  /** Lower-case regular headers; repeated ones joined with ", " (as Node gives them). */
  readonly map: Record<string, string>;
  /** Pseudo-headers (`:method`, `:path`, `:status`, …). */
  readonly pseudo: Record<string, string>;
  /** Regular header names that came more than once. */
  readonly repeated: string[];
  /** Regular header fields, repeats counted. */
  readonly fieldCount: number;
  /** Bytes of the regular fields' names and values, repeats counted. */
  readonly headerBytes: number;
}

/** Envoy sends header values in raw_value (bytes); value is only read when raw_value is absent. */
export function decodeHeaders(headers: ProtoHeaderMap | undefined): DecodedHeaders {
  const map: Record<string, string> = {};
  const pseudo: Record<string, string> = {};
  const repeated: string[] = [];
  let fieldCount = 0;
  let headerBytes = 0;
  for (const h of headers?.headers ?? []) {
    const key = (h.key ?? '').toLowerCase();
    if (key === '') continue;
    // The decoder hands out Buffers already; Buffer.from(buffer) would copy every value once more.
    const raw = h.raw_value;
    const value = raw !== undefined ? (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('latin1') : (h.value ?? '');
    if (key.startsWith(':')) {
      pseudo[key] = value;
      continue;
    }
    fieldCount++;
    headerBytes += key.length + value.length;
    if (map[key] === undefined) map[key] = value;
    else {
      if (!repeated.includes(key)) repeated.push(key);
      map[key] = `${map[key]}, ${value}`;
    }
  }
  return { map, pseudo, repeated, fieldCount, headerBytes };
}

/** A header to set, replacing any existing value: raw_value only (never both value and raw_value). */
export function setHeader(key: string, value: string): HeaderValueOption {
  return { header: { key, raw_value: Buffer.from(value, 'latin1') }, append: { value: false } };
}
