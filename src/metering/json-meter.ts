import { mergeUsage, type Usage } from './usage.js';

/** Non-streaming responses past this size keep only their tail, where `usage` sits. */
const MAX_WHOLE = 4 * 1024 * 1024;
const TAIL = 64 * 1024;

/** Reads `usage` from a JSON response relayed chunk by chunk. */
export class JsonMeter {
  readonly usage: Usage;
  private chunks: Buffer[] = [];
  private size = 0;
  private truncated = false;
  /** Set by end(): input_tokens of a count_tokens answer, for instance. */
  body: Record<string, unknown> | null = null;
  /** The model the provider says answered, for traces and GenAI metrics. */
  responseModel: string | null = null;

  constructor(usage: Usage) {
    this.usage = usage;
  }

  push(chunk: Uint8Array): void {
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    this.size += chunk.length;
    if (this.size > MAX_WHOLE) {
      const all = Buffer.concat(this.chunks);
      this.chunks = [Buffer.from(all.subarray(all.length - TAIL))];
      this.size = TAIL;
      this.truncated = true;
    }
  }

  end(): void {
    const text = Buffer.concat(this.chunks).toString('utf8');
    this.chunks = [];
    if (!this.truncated) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null) {
          this.body = parsed as Record<string, unknown>;
          mergeUsage(this.usage, this.body.usage);
          if (typeof this.body.model === 'string') this.responseModel = this.body.model.slice(0, 200);
        }
      } catch {
        // Not JSON (an HTML error page from a proxy, say): nothing to meter.
      }
      return;
    }
    const at = text.lastIndexOf('"usage"');
    if (at === -1) return;
    const open = text.indexOf('{', at);
    if (open === -1) return;
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        try {
          mergeUsage(this.usage, JSON.parse(text.slice(open, i + 1)));
        } catch {
          /* unreadable tail: no usage */
        }
        return;
      }
    }
  }
}
