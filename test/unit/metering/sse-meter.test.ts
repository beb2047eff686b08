import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseMeter } from '../../../src/metering/sse-meter.js';
import { emptyUsage, type Usage } from '../../../src/metering/usage.js';

// ---- A model of an Anthropic Messages stream, rendered to SSE bytes ----

interface ReportedUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number };
}

type StreamEvent =
  | { kind: 'message_start'; usage: ReportedUsage }
  | { kind: 'content_block_start' }
  | { kind: 'content_block_delta'; text: string }
  | { kind: 'content_block_stop' }
  | { kind: 'ping' }
  | { kind: 'message_delta'; usage: ReportedUsage }
  | { kind: 'message_stop' }
  | { kind: 'error'; errorType: string }
  | { kind: 'malformed'; name: string }
  | { kind: 'comment'; text: string };

interface Rendering {
  /** Write an `event:` line (otherwise the type is only inside the data). */
  named: boolean;
  /** Pretty-print the JSON over several `data:` lines. */
  multiLine: boolean;
  /** Put the `event:` line after the data lines (field order is free in SSE). */
  nameLast: boolean;
}

type LineEnd = '\n' | '\r\n' | '\r';

interface Stream {
  events: Array<{ event: StreamEvent; rendering: Rendering }>;
  lineEnds: LineEnd[];
  /** How the stream stops: after the blank line, after the last line's end, or in the middle of the last line. */
  ending: 'blank' | 'line' | 'none';
}

function payload(event: StreamEvent): { name: string; data: unknown } | { name: string; raw: string } | null {
  switch (event.kind) {
    case 'message_start':
      return {
        name: 'message_start',
        data: {
          type: 'message_start',
          message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: event.usage },
        },
      };
    case 'content_block_start':
      return { name: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } };
    case 'content_block_delta':
      return { name: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: event.text } } };
    case 'content_block_stop':
      return { name: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } };
    case 'ping':
      return { name: 'ping', data: { type: 'ping' } };
    case 'message_delta':
      return { name: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: event.usage } };
    case 'message_stop':
      return { name: 'message_stop', data: { type: 'message_stop' } };
    case 'error':
      return { name: 'error', data: { type: 'error', error: { type: event.errorType, message: 'Overloaded' } } };
    case 'malformed':
      return { name: event.name, raw: '{"type":"' + event.name + '","usage":{"output_tokens":999' };
    case 'comment':
      return null;
  }
}

function render(stream: Stream): Buffer {
  const lines: string[] = [];
  stream.events.forEach(({ event, rendering }) => {
    const p = payload(event);
    if (p === null) {
      lines.push(`:${(event as { text: string }).text}`, '');
      return;
    }
    const dataText = 'raw' in p ? p.raw : JSON.stringify(p.data, null, rendering.multiLine ? 2 : undefined);
    const dataLines = dataText.split('\n').map((l) => `data: ${l}`);
    const named = rendering.named || 'raw' in p;
    if (named && !rendering.nameLast) lines.push(`event: ${p.name}`);
    lines.push(...dataLines);
    if (named && rendering.nameLast) lines.push(`event: ${p.name}`);
    lines.push('');
  });
  // lines ends with '' (the blank line of the last event); `ending` decides how much of it is sent.
  let text = '';
  const count = stream.ending === 'blank' ? lines.length : lines.length - 1;
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    text += lines[i];
    if (last && stream.ending === 'none') break;
    let end = stream.lineEnds[i % stream.lineEnds.length] as LineEnd;
    // CR then an empty line ended by LF would read as one CRLF: that is a different stream, so avoid writing it.
    if (end === '\n' && lines[i] === '' && text.endsWith('\r')) end = '\r\n';
    text += end;
  }
  return Buffer.from(text, 'utf8');
}

/** What a correct meter must report, computed from the model, not from the bytes. */
function expected(stream: Stream): { usage: Usage; sawMessageStop: boolean; errorType: string | null; events: number } {
  const usage = emptyUsage();
  let sawMessageStop = false;
  let errorType: string | null = null;
  let events = 0;
  const apply = (u: ReportedUsage): void => {
    if (u.input_tokens !== undefined) usage.input_tokens = u.input_tokens;
    if (u.output_tokens !== undefined) usage.output_tokens = u.output_tokens;
    if (u.cache_creation_input_tokens !== undefined) usage.cache_creation_input_tokens = u.cache_creation_input_tokens;
    if (u.cache_read_input_tokens !== undefined) usage.cache_read_input_tokens = u.cache_read_input_tokens;
    if (u.cache_creation?.ephemeral_5m_input_tokens !== undefined) usage.cache_creation_5m_input_tokens = u.cache_creation.ephemeral_5m_input_tokens;
    if (u.cache_creation?.ephemeral_1h_input_tokens !== undefined) usage.cache_creation_1h_input_tokens = u.cache_creation.ephemeral_1h_input_tokens;
  };
  for (const { event } of stream.events) {
    if (event.kind !== 'comment') events++;
    if (event.kind === 'message_start' || event.kind === 'message_delta') apply(event.usage);
    else if (event.kind === 'message_stop') sawMessageStop = true;
    else if (event.kind === 'error') errorType = event.errorType;
  }
  return { usage, sawMessageStop, errorType, events };
}

function meter(chunks: Iterable<Uint8Array>): SseMeter {
  const m = new SseMeter(emptyUsage());
  for (const chunk of chunks) {
    // The data plane may reuse a chunk's memory once it is relayed: the meter must not keep a view of it.
    const copy = Buffer.from(chunk);
    m.push(copy);
    copy.fill(0x21);
  }
  m.end();
  return m;
}

function observed(m: SseMeter): ReturnType<typeof expected> {
  return { usage: { ...m.usage }, sawMessageStop: m.sawMessageStop, errorType: m.errorType, events: m.events };
}

function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let at = 0;
  for (const p of points) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  out.push(bytes.subarray(at));
  return out;
}

// ---- Generators ----

const count = fc.nat({ max: 200_000 });
const reportedUsage: fc.Arbitrary<ReportedUsage> = fc.record(
  {
    input_tokens: count,
    output_tokens: count,
    cache_creation_input_tokens: count,
    cache_read_input_tokens: count,
    cache_creation: fc.record({ ephemeral_5m_input_tokens: count, ephemeral_1h_input_tokens: count }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('"message_start"', 'data: x\n\nevent: error', '\r\n', 'Grüße 漢字 😀'));
const streamEvent: fc.Arbitrary<StreamEvent> = fc.oneof(
  { weight: 3, arbitrary: reportedUsage.map((usage) => ({ kind: 'message_start' as const, usage })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'content_block_start' as const }) },
  { weight: 5, arbitrary: text.map((t) => ({ kind: 'content_block_delta' as const, text: t })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'content_block_stop' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'ping' as const }) },
  { weight: 3, arbitrary: reportedUsage.map((usage) => ({ kind: 'message_delta' as const, usage })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'message_stop' as const }) },
  { weight: 1, arbitrary: fc.constantFrom('overloaded_error', 'api_error').map((errorType) => ({ kind: 'error' as const, errorType })) },
  { weight: 1, arbitrary: fc.constantFrom('message_start', 'message_delta', 'error').map((name) => ({ kind: 'malformed' as const, name })) },
  { weight: 1, arbitrary: fc.constantFrom(' keep-alive', '', 'event: message_stop').map((t) => ({ kind: 'comment' as const, text: t })) },
);
const rendering: fc.Arbitrary<Rendering> = fc.record({ named: fc.boolean(), multiLine: fc.boolean(), nameLast: fc.boolean() });
const stream: fc.Arbitrary<Stream> = fc.record({
  events: fc.array(fc.record({ event: streamEvent, rendering }), { minLength: 1, maxLength: 12 }),
  lineEnds: fc.oneof(fc.constantFrom<LineEnd[]>(['\n'], ['\r\n'], ['\r']), fc.array(fc.constantFrom<LineEnd>('\n', '\r\n', '\r'), { minLength: 1, maxLength: 5 })),
  ending: fc.constantFrom('blank' as const, 'line' as const, 'none' as const),
});

// ---- Realistic fixed stream ----

const REALISTIC = [
  'event: message_start',
  'data: {"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":1200,"cache_read_input_tokens":300,"cache_creation":{"ephemeral_5m_input_tokens":200,"ephemeral_1h_input_tokens":1000},"output_tokens":1,"service_tier":"standard"}}}',
  '',
  'event: content_block_start',
  'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  '',
  'event: ping',
  'data: {"type": "ping"}',
  '',
  'event: content_block_delta',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello, Grüße 😀"}}',
  '',
  'event: content_block_stop',
  'data: {"type":"content_block_stop","index":0}',
  '',
  'event: message_delta',
  'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}',
  '',
  'event: message_stop',
  'data: {"type":"message_stop"}',
  '',
  '',
].join('\n');
const REALISTIC_USAGE: Usage = {
  input_tokens: 25,
  output_tokens: 15,
  cache_creation_input_tokens: 1200,
  cache_read_input_tokens: 300,
  cache_creation_5m_input_tokens: 200,
  cache_creation_1h_input_tokens: 1000,
};

describe('SseMeter', () => {
  it('meters a realistic stream: message_start counts, cumulative message_delta output, message_stop', () => {
    const m = meter([Buffer.from(REALISTIC)]);
    expect(m.usage).toEqual(REALISTIC_USAGE);
    expect(m.sawMessageStop).toBe(true);
    expect(m.errorType).toBeNull();
    expect(m.events).toBe(7);
  });

  it('gives the same result when every byte arrives in its own chunk', () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const bytes = Buffer.from(REALISTIC.replaceAll('\n', end));
      expect(observed(meter(split(bytes, [...bytes.keys()]))), JSON.stringify(end)).toEqual(observed(meter([bytes])));
      expect(meter(split(bytes, [...bytes.keys()])).usage).toEqual(REALISTIC_USAGE);
    }
  });

  it('treats a CRLF split between CR and LF as one line end', () => {
    const bytes = Buffer.from(REALISTIC.replaceAll('\n', '\r\n'));
    const afterEveryCr = [...bytes.keys()].filter((i) => bytes[i] === 0x0d).map((i) => i + 1);
    const m = meter(split(bytes, afterEveryCr));
    expect(m.usage).toEqual(REALISTIC_USAGE);
    expect(m.events).toBe(7);
    // The same with an empty chunk between the CR and the LF.
    const withEmpty = split(bytes, afterEveryCr).flatMap((c) => [c, Buffer.alloc(0)]);
    expect(meter(withEmpty).events).toBe(7);
  });

  it('meters the same for any chunking as for one whole chunk, and as the stream says', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 40 }), (s, cuts) => {
        const bytes = render(s);
        const whole = observed(meter([bytes]));
        expect(whole).toEqual(expected(s));
        expect(observed(meter(split(bytes, cuts)))).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });

  it('meters the same with 1-byte chunks for random streams', () => {
    fc.assert(
      fc.property(stream, (s) => {
        const bytes = render(s);
        expect(observed(meter(split(bytes, [...bytes.keys()])))).toEqual(expected(s));
      }),
      { numRuns: 100 },
    );
  });

  it('skips comments and pings', () => {
    const m = meter([Buffer.from(': keep-alive\n\n:\n\nevent: ping\ndata: {"type": "ping"}\n\n')]);
    expect(m.events).toBe(1);
    expect(m.usage).toEqual(emptyUsage());
  });

  it('reads the type from the data when an event has no event: line', () => {
    const m = meter([
      Buffer.from(
        'data: {"type":"message_start","message":{"usage":{"input_tokens":10,"output_tokens":1}}}\n\n' +
          'data: {"type":"message_delta","usage":{"output_tokens":20}}\n\n' +
          'data: {"type":"message_stop"}\n\n',
      ),
    ]);
    expect(m.usage).toMatchObject({ input_tokens: 10, output_tokens: 20 });
    expect(m.sawMessageStop).toBe(true);
  });

  it('joins multi-line data with newlines before parsing', () => {
    const m = meter([Buffer.from('event: message_delta\ndata: {"type":"message_delta",\ndata: "usage":\ndata: {"output_tokens":33}}\n\n')]);
    expect(m.usage.output_tokens).toBe(33);
  });

  it('joins multi-line data without an event: line even when the type is not on the first line', () => {
    const m = meter([Buffer.from('data: {\ndata:   "type": "message_delta",\ndata:   "usage": {"output_tokens": 44}\ndata: }\n\n')]);
    expect(m.usage.output_tokens).toBe(44);
  });

  it('ignores an event whose data is not JSON and keeps metering after it', () => {
    const m = meter([
      Buffer.from(
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5}}}\n\n' +
          'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":\n\n' +
          'event: message_delta\ndata: null\n\n' +
          'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":9}}\n\n',
      ),
    ]);
    expect(m.usage).toMatchObject({ input_tokens: 5, output_tokens: 9 });
  });

  it('captures the type of an error event', () => {
    const m = meter([Buffer.from('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n')]);
    expect(m.errorType).toBe('overloaded_error');
    expect(m.sawMessageStop).toBe(false);
    expect(meter([Buffer.from('event: error\ndata: {"type":"error"}\n\n')]).errorType).toBe('error');
  });

  it('sees message_stop by its event name alone', () => {
    expect(meter([Buffer.from('event: message_stop\n\n')]).sawMessageStop).toBe(true);
    expect(meter([Buffer.from('event: message_delta\ndata: {"type":"message_delta","usage":{}}\n\n')]).sawMessageStop).toBe(false);
  });

  it('dispatches the last event at end() when the stream stops without its blank line', () => {
    for (const tail of ['\n', '\r\n', '\r', '']) {
      const m = new SseMeter(emptyUsage());
      m.push(Buffer.from(`event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":12}}${tail}`));
      expect(m.usage.output_tokens).toBe(0);
      m.end();
      expect(m.usage.output_tokens, JSON.stringify(tail)).toBe(12);
    }
  });

  it('does not count an event twice when end() follows a complete stream', () => {
    const m = new SseMeter(emptyUsage());
    m.push(Buffer.from(REALISTIC));
    m.end();
    m.end();
    expect(m.events).toBe(7);
  });
});
