import { GatewayError } from '../errors/gateway-error.js';
import { REQUEST_MESSAGES } from '../errors/messages.js';
import type { RequestHead } from './types.js';

/** Headers whose meaning changes when sent twice: refused, never resolved first-wins. */
const SINGLE = new Set(['authorization', 'x-api-key', 'content-length', 'host']);

export function mustAppearOnce(name: string): boolean {
  return SINGLE.has(name) || name.startsWith('x-gw-');
}

export interface HeaderLimits {
  /** Header fields a request may carry. */
  readonly maxHeaders: number;
  /** Bytes of header names and values together. */
  readonly maxHeaderBytes: number;
}

/**
 * Ambiguous heads are refused before anything reads them: a duplicated
 * Authorization could authenticate as one caller and be forwarded as another.
 */
export function refuseDuplicates(head: RequestHead): void {
  for (const name of head.repeated ?? []) {
    if (mustAppearOnce(name)) {
      throw new GatewayError('invalid_request', REQUEST_MESSAGES.headerRepeated(name.slice(0, 64)));
    }
  }
}

/** The count and size bound of DESIGN §4, checked on what the caller sent (431 beyond). */
export function refuseOversizedHead(head: RequestHead, limits: HeaderLimits): void {
  let fields = head.fieldCount ?? 0;
  let bytes = head.headerBytes ?? 0;
  if (head.fieldCount === undefined || head.headerBytes === undefined) {
    // A head whose data plane did not count it as it read it (the joined map undercounts repeats).
    let joinedFields = 0;
    let joinedBytes = 0;
    for (const name in head.headers) {
      const value = head.headers[name];
      if (value === undefined) continue;
      joinedFields++;
      joinedBytes += name.length + value.length;
    }
    fields = Math.max(fields, joinedFields);
    bytes = Math.max(bytes, joinedBytes);
  }
  if (fields > limits.maxHeaders) {
    throw new GatewayError('headers_too_large', REQUEST_MESSAGES.tooManyHeaders(fields, limits.maxHeaders));
  }
  if (bytes > limits.maxHeaderBytes) {
    throw new GatewayError('headers_too_large', REQUEST_MESSAGES.headersTooLarge(bytes, limits.maxHeaderBytes));
  }
}
