import { describe, expect, it } from 'vitest';
import { JsonMeter } from '../../../src/metering/json-meter.js';
import { emptyUsage, type Usage } from '../../../src/metering/usage.js';

const USAGE = {
  input_tokens: 2095,
  cache_creation_input_tokens: 1500,
  cache_read_input_tokens: 64,
  cache_creation: { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 1000 },
  output_tokens: 503,
  service_tier: 'standard',
};
const EXPECTED: Usage = {
  input_tokens: 2095,
  output_tokens: 503,
  cache_creation_input_tokens: 1500,
  cache_read_input_tokens: 64,
  cache_creation_5m_input_tokens: 500,
  cache_creation_1h_input_tokens: 1000,
};

function message(text: string): string {
  return JSON.stringify({
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  });
}

function meter(chunks: Iterable<Uint8Array>): JsonMeter {
  const m = new JsonMeter(emptyUsage());
  for (const chunk of chunks) m.push(chunk);
  m.end();
  return m;
}

function* slices(body: Buffer, size: number): Iterable<Buffer> {
  for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size);
}

describe('JsonMeter', () => {
  it('reads usage from a whole body and keeps the parsed body', () => {
    const m = meter([Buffer.from(message('Hello!'))]);
    expect(m.usage).toEqual(EXPECTED);
    expect(m.body).toMatchObject({ id: 'msg_01XFDUDYJgAACzvnptvVoYEL', stop_reason: 'end_turn' });
  });

  it('reads the same usage from a body split into chunks of any size, multibyte characters cut in half', () => {
    const body = Buffer.from(message('Grüße 漢字 😀 '.repeat(20)));
    for (const size of [1, 2, 3, 7, 64, 1000]) expect(meter(slices(body, size)).usage, `chunks of ${size}`).toEqual(EXPECTED);
  });

  it('writes into the usage object it was given, keeping what an earlier source said', () => {
    const usage = emptyUsage();
    usage.output_tokens = 7;
    const m = new JsonMeter(usage);
    m.push(Buffer.from('{"type":"message","usage":{"input_tokens":3}}'));
    m.end();
    expect(usage).toMatchObject({ input_tokens: 3, output_tokens: 7 });
    expect(m.usage).toBe(usage);
  });

  it('exposes a count_tokens answer, which has no usage object, as the body', () => {
    const m = meter([Buffer.from('{"input_tokens":42}')]);
    expect(m.body).toEqual({ input_tokens: 42 });
    expect(m.usage).toEqual(emptyUsage());
  });

  it('still finds usage at the end of a body over 4 MiB, keeping only the tail', () => {
    const body = Buffer.from(message('x'.repeat(5 * 1024 * 1024)));
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024);
    const m = meter(slices(body, 64 * 1024));
    expect(m.usage).toEqual(EXPECTED);
    expect(m.body).toBeNull();
  });

  it('finds usage past 4 MiB when the body arrives in one chunk', () => {
    const m = meter([Buffer.from(message('y'.repeat(4 * 1024 * 1024 + 10)))]);
    expect(m.usage).toEqual(EXPECTED);
  });

  it('uses the last usage object of a truncated body, nested braces included', () => {
    const tail = `,"usage":{"input_tokens":1,"cache_creation":{"ephemeral_1h_input_tokens":9},"output_tokens":2}}`;
    const body = Buffer.from(`{"content":[{"type":"text","text":"${'z'.repeat(4 * 1024 * 1024)} \\"usage\\": {\\"input_tokens\\": 999}"}]${tail}`);
    const m = meter(slices(body, 1024 * 1024));
    expect(m.usage).toMatchObject({ input_tokens: 1, output_tokens: 2, cache_creation_1h_input_tokens: 9 });
  });

  it.each([
    ['an HTML error page', '<html><body>502 Bad Gateway</body></html>'],
    ['an empty body', ''],
    ['truncated JSON', '{"type":"message","usage":{"input_tokens":5'],
    ['a JSON string', '"usage"'],
  ])('meters nothing from %s', (_, text) => {
    const m = meter([Buffer.from(text)]);
    expect(m.usage).toEqual(emptyUsage());
  });

  it('meters nothing from a body over 4 MiB without a readable usage object', () => {
    expect(meter(slices(Buffer.from('<' + 'p'.repeat(5 * 1024 * 1024)), 1 << 20)).usage).toEqual(emptyUsage());
    expect(meter(slices(Buffer.from(`{"t":"${'p'.repeat(5 * 1024 * 1024)}","usage":{"input_tokens":5`), 1 << 20)).usage).toEqual(emptyUsage());
  });
});
