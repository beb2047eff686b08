import { mergeUsage, type Usage } from './usage.js';

const LF = 0x0a;
const CR = 0x0d;

/** The line's field is `data` ("data" alone, or "data:" and a value). */
function isDataLine(chunk: Uint8Array, start: number, end: number): boolean {
  return end - start >= 4 && chunk[start] === 0x64 && chunk[start + 1] === 0x61 && chunk[start + 2] === 0x74 && chunk[start + 3] === 0x61 && (end - start === 4 || chunk[start + 4] === 0x3a);
}
/** The event line of a content delta, nearly every event of a stream, recognised without decoding it. */
const CONTENT_DELTA_EVENT = Buffer.from('event: content_block_delta', 'latin1');
function isContentDeltaEventLine(chunk: Uint8Array, start: number, end: number): boolean {
  if (end - start !== CONTENT_DELTA_EVENT.length) return false;
  for (let i = 0; i < CONTENT_DELTA_EVENT.length; i++) if (chunk[start + i] !== CONTENT_DELTA_EVENT[i]) return false;
  return true;
}

/**
 * Usage-carrying lines and events are small (well under 1 KiB). A longer line
 * or event is metered by its first MAX_LINE_BYTES only (so it yields no usage)
 * and the rest is skipped: a provider that never ends a line cannot make the
 * meter buffer without bound, nor copy its buffer again on every chunk.
 */
const MAX_LINE_BYTES = 1024 * 1024;

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
  /** The model the provider says answered (message_start), for traces and GenAI metrics. */
  responseModel: string | null = null;
  sawMessageStop = false;
  errorType: string | null = null;
  events = 0;
  /** Bytes of a line not yet terminated (at most MAX_LINE_BYTES are kept). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dataBytes = 0;
  /** The current event's data passed MAX_LINE_BYTES: it is skipped. */
  private overlong = false;
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
      this.keep(chunk.subarray(start));
      this.lastWasCR = false;
    }
  }

  /** Hold the start of an unterminated line, up to MAX_LINE_BYTES (copied: the chunk is not ours). */
  private keep(bytes: Uint8Array): void {
    const room = MAX_LINE_BYTES - this.pendingBytes;
    if (room <= 0) return;
    const part = Buffer.from(bytes.subarray(0, room));
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private takePending(): Buffer {
    const all = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return all;
  }

  /** The stream ended: an event without its blank line is still dispatched. */
  end(): void {
    if (this.pendingBytes > 0) this.processLine(this.takePending().toString('utf8'));
    this.dispatch();
  }

  private line(chunk: Uint8Array, start: number, end: number): void {
    let text: string;
    if (this.pendingBytes > 0) {
      this.keep(chunk.subarray(start, end));
      text = this.takePending().toString('utf8');
    } else {
      if (start === end) {
        this.dispatch();
        return;
      }
      // A data line of an event already named as one that carries no usage (content
      // deltas: nearly every byte of a stream) changes nothing but "has data": not decoded.
      if (this.eventName !== '' && !this.interesting && isDataLine(chunk, start, end)) {
        this.hasData = true;
        return;
      }
      if (isContentDeltaEventLine(chunk, start, end)) {
        this.eventName = 'content_block_delta';
        this.interesting = false;
        return;
      }
      text = Buffer.from(chunk.buffer, chunk.byteOffset + start, Math.min(end - start, MAX_LINE_BYTES)).toString('utf8');
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
      this.hasData = true;
      if (this.overlong) return;
      // Without an event line, the type inside the data decides; keep it only if it may matter.
      if (this.eventName === '' && !this.interesting) {
        this.interesting = value.includes('"message_') || value.includes('"error"');
      }
      // An unnamed event may reveal its type on a later data line, so its earlier lines are kept too.
      if (this.interesting || this.eventName === '') {
        this.dataBytes += value.length;
        if (this.dataBytes <= MAX_LINE_BYTES) this.data.push(value);
        else {
          // Far too long to be a usage event: stop keeping it.
          this.overlong = true;
          this.interesting = false;
          this.data = [];
        }
      }
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
    // Content deltas keep no data lines: their (empty) list is reused rather than replaced once per event.
    if (data.length > 0) this.data = [];
    this.dataBytes = 0;
    this.overlong = false;
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
      if (message && typeof message === 'object') {
        mergeUsage(this.usage, message.usage);
        if (typeof message.model === 'string') this.responseModel = message.model.slice(0, 200);
      }
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
