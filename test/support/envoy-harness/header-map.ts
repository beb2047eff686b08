/**
 * An ordered header list holding raw bytes, like Envoy's header map: keys are
 * lower-case, a repeated header is several entries, pseudo-headers (`:path`,
 * `:status`) live in the same list. Values are bytes because ext_proc carries
 * them in raw_value; Node's http layer speaks latin1 strings, which map one
 * byte to one character, so conversions at the edges lose nothing.
 */
import type { HeaderValue } from '../../../src/extproc/proto.js';

export class HeaderMap {
  private entries: [string, Buffer][] = [];

  static fromPairs(pairs: Iterable<readonly [string, string | Buffer]>): HeaderMap {
    const map = new HeaderMap();
    for (const [k, v] of pairs) map.add(k, v);
    return map;
  }

  get size(): number {
    return this.entries.length;
  }

  has(name: string): boolean {
    const key = name.toLowerCase();
    return this.entries.some(([k]) => k === key);
  }

  get(name: string): Buffer | undefined {
    const key = name.toLowerCase();
    return this.entries.find(([k]) => k === key)?.[1];
  }

  getString(name: string): string | undefined {
    return this.get(name)?.toString('latin1');
  }

  add(name: string, value: string | Buffer): void {
    this.entries.push([name.toLowerCase(), toBytes(value)]);
  }

  /** Replaces every value of `name` with one value, kept where the first one was. */
  set(name: string, value: string | Buffer): void {
    const key = name.toLowerCase();
    const index = this.entries.findIndex(([k]) => k === key);
    if (index < 0) {
      this.entries.push([key, toBytes(value)]);
      return;
    }
    this.entries[index] = [key, toBytes(value)];
    this.entries = this.entries.filter(([k], i) => k !== key || i === index);
  }

  remove(name: string): void {
    const key = name.toLowerCase();
    this.entries = this.entries.filter(([k]) => k !== key);
  }

  toProto(): HeaderValue[] {
    return this.entries.map(([key, value]) => ({ key, raw_value: Buffer.from(value) }));
  }

  /** Regular (non-pseudo) headers as a flat [k, v, k, v] list for node:http. */
  toNodeRaw(): string[] {
    const out: string[] = [];
    for (const [k, v] of this.entries) {
      if (!k.startsWith(':')) out.push(k, v.toString('latin1'));
    }
    return out;
  }

  /** Regular headers for undici, repeated ones as arrays. */
  toRecord(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of this.entries) {
      if (k.startsWith(':')) continue;
      const value = v.toString('latin1');
      const existing = out[k];
      if (existing === undefined) out[k] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else out[k] = [existing, value];
    }
    return out;
  }

  clone(): HeaderMap {
    const copy = new HeaderMap();
    copy.entries = this.entries.map(([k, v]) => [k, Buffer.from(v)]);
    return copy;
  }
}

function toBytes(value: string | Buffer): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from(value);
}
