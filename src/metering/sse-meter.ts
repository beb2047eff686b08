import { mergeUsage, type Usage } from './usage.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * Incremental server-sent-events reader that meters usage on the side of a
 * relayed stream. It never changes the bytes it sees. It survives events
 * split across chunks, many events per chunk, CRLF/LF/CR line ends, comments
 * and pings. Only `message_start`, `message_delta` and `error` events are
 * JSON-parsed; content deltas (nearly all events) are skipped by looking at
 * the event name, so the per-chunk cost stays small.
 */
export class SseMeter {
  readonly usage: Usage;
  sawMessageStop = false;
  errorType: string | null = null;
  events = 0;
  /** Bytes of a line not yet terminated. */
  private pending: Buffer | null = null;
  private lastWasCR = false;
  private eventName = '';
  private data: string[] = [];
  private hasData = false;
  private interesting = false;

  constructor(usage: Usage) {
    this.usage = usage;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b !== LF && b !== CR) continue;
      if (b === LF && this.lastWasCR && i === start) {
        // Second half of a CRLF split across (or within) chunks.
        this.lastWasCR = false;
        start = i + 1;
        continue;
      }
      this.lastWasCR = b === CR;
      this.line(chunk, start, i);
      start = i + 1;
    }
    if (start < chunk.length) {
      const rest = Buffer.from(chunk.buffer, chunk.byteOffset + start, chunk.length - start);
      this.pending = this.pending ? Buffer.concat([this.pending, rest]) : Buffer.from(rest);
      this.lastWasCR = false;
    }
  }

  /** The stream ended: an event without its blank line is still dispatched. */
  end(): void {
    if (this.pending) {
      const p = this.pending;
      this.pending = null;
      this.processLine(p.toString('utf8'));
    }
    this.dispatch();
  }

  private line(chunk: Uint8Array, start: number, end: number): void {
    let text: string;
    if (this.pending) {
      const head = this.pending;
      this.pending = null;
      text = Buffer.concat([head, chunk.subarray(start, end)]).toString('utf8');
    } else {
      if (start === end) {
        this.dispatch();
        return;
      }
      text = Buffer.from(chunk.buffer, chunk.byteOffset + start, end - start).toString('utf8');
    }
    this.processLine(text);
  }

  private processLine(text: string): void {
    if (text.length === 0) {
      this.dispatch();
      return;
    }
    if (text.charCodeAt(0) === 0x3a /* : comment */) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'event') {
      this.eventName = value;
      this.interesting = value === 'message_start' || value === 'message_delta' || value === 'error' || value === 'message_stop';
    } else if (field === 'data') {
      // Without an event line, the type inside the data decides; keep it only if it may matter.
      if (this.eventName === '' && !this.interesting) {
        this.interesting = value.includes('"message_') || value.includes('"error"');
      }
      this.hasData = true;
      // An unnamed event may reveal its type on a later data line, so its earlier lines are kept too.
      if (this.interesting || this.eventName === '') this.data.push(value);
    }
  }

  private dispatch(): void {
    if (this.eventName === '' && !this.hasData) return;
    this.events++;
    const name = this.eventName;
    const interesting = this.interesting;
    const data = this.data;
    this.eventName = '';
    this.interesting = false;
    this.data = [];
    this.hasData = false;
    if (!interesting) return;
    if (name === 'message_stop') {
      this.sawMessageStop = true;
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(data.join('\n'));
    } catch {
      return; // A malformed event is relayed as it is; it just carries no usage.
    }
    if (typeof payload !== 'object' || payload === null) return;
    const event = payload as Record<string, unknown>;
    const type = typeof event.type === 'string' ? event.type : name;
    if (type === 'message_start') {
      const message = event.message as Record<string, unknown> | undefined;
      if (message && typeof message === 'object') mergeUsage(this.usage, message.usage);
    } else if (type === 'message_delta') {
      mergeUsage(this.usage, event.usage);
    } else if (type === 'message_stop') {
      this.sawMessageStop = true;
    } else if (type === 'error') {
      const err = event.error as Record<string, unknown> | undefined;
      this.errorType = err && typeof err.type === 'string' ? err.type : 'error';
    }
  }
}
