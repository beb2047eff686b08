/**
 * Response bodies: STREAMED chunking and holding, BUFFERED, content-length
 * removal and mode_override (reference §2.3, §2.6).
 */
import { request, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ProcessingRequest } from '../../../src/extproc/proto.js';
import { splitEvery, splitSeeded } from '../../support/envoy-harness/index.js';
import { headerValues, pass, passAll, raw, useRig, type ProcessorCall } from './fixtures.js';

const rig = useRig();

const EVENTS = [
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"Hello"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];
const SSE = EVENTS.join('');

/** An SSE upstream that writes each event separately. */
const sseUpstream = async (_req: unknown, res: ServerResponse): Promise<void> => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of EVENTS) {
    res.write(event);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  res.end();
};

const jsonUpstream = (body: string) => (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

const splitEvents = (data: Buffer): Buffer[] =>
  data
    .toString()
    .split(/(?<=\n\n)/)
    .map((e) => Buffer.from(e));

const bodyMessages = (received: ProcessingRequest[] | undefined) => (received ?? []).filter((m) => m.request === 'response_body').map((m) => m.response_body ?? {});

describe('STREAMED response body', () => {
  it('re-chunks arbitrarily, splits events across chunks, ends with an empty end_of_stream chunk', async () => {
    const r = await rig(passAll, { processingMode: { response_body_mode: 'STREAMED' }, responseChunking: { split: splitEvery(7) } }, { vendor: sseUpstream });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(SSE);

    const chunks = bodyMessages(r.processor.calls[0]?.received);
    const bodies = chunks.map((c) => c.body?.toString() ?? '');
    expect(bodies.join('')).toBe(SSE);
    expect(bodies.slice(0, -1).every((b) => b.length > 0 && b.length <= 7)).toBe(true);
    // Some chunk ends in the middle of an event.
    expect(bodies.some((b) => b.length > 0 && !b.endsWith('\n'))).toBe(true);
    const last = chunks.at(-1);
    expect(last?.body ?? Buffer.alloc(0)).toHaveLength(0);
    expect(last?.end_of_stream).toBe(true);
    expect(chunks.slice(0, -1).every((c) => c.end_of_stream === undefined)).toBe(true);
  });

  it('can put end_of_stream on the last data chunk instead', async () => {
    const r = await rig(
      passAll,
      {
        processingMode: { response_body_mode: 'STREAMED' },
        responseChunking: { split: splitSeeded(42, 40), emptyFinalChunk: false },
      },
      { vendor: sseUpstream },
    );
    const res = await r.send({ body: '{}' });
    expect(res.body.toString()).toBe(SSE);
    const chunks = bodyMessages(r.processor.calls[0]?.received);
    expect(chunks.every((c) => (c.body?.length ?? 0) > 0)).toBe(true);
    expect(chunks.filter((c) => c.end_of_stream)).toHaveLength(1);
    expect(chunks.at(-1)?.end_of_stream).toBe(true);
  });

  it('holds every chunk until its own answer arrives, then forwards what the answer says', async () => {
    let clientBytesWhenAllSent = -1;
    let clientBytes = 0;
    let expected = '';
    const r = await rig(
      async (m, call) => {
        if (m.request !== 'response_body') return call.send(pass(m));
        if (!m.response_body?.end_of_stream) return; // answer nothing yet
        // Every chunk has been sent (pipelined) and none answered.
        await new Promise((resolve) => setTimeout(resolve, 100));
        clientBytesWhenAllSent = clientBytes;
        const owed = bodyMessages(call.received);
        expected = owed.map((chunk, i) => (chunk.end_of_stream ? '[end]' : `[${i}]`)).join('');
        owed.forEach((chunk, i) =>
          call.send({
            response_body: {
              response: {
                body_mutation: chunk.end_of_stream ? { body: Buffer.from('[end]') } : { body: Buffer.from(`[${i}]`) },
              },
            },
          }),
        );
      },
      { processingMode: { response_body_mode: 'STREAMED' } },
      { vendor: sseUpstream },
    );
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(new URL('/v1/messages', r.harness.url), { method: 'POST', headers: { 'content-length': 2 } });
      req.on('error', reject);
      req.on('response', (res) => {
        let out = '';
        res.on('data', (c: Buffer) => {
          clientBytes += c.length;
          out += c.toString();
        });
        res.on('end', () => resolve(out));
      });
      req.end('{}');
    });
    expect(clientBytesWhenAllSent).toBe(0);
    expect(expected).toMatch(/^(\[\d+\])+\[end\]$/);
    expect(text).toBe(expected);
  });

  it('clear_body drops a chunk, and header mutations in body answers change nothing', async () => {
    const r = await rig(
      (m, call) => {
        if (m.request !== 'response_body') return call.send(pass(m));
        const text = m.response_body?.body?.toString() ?? '';
        call.send({
          response_body: {
            response: {
              header_mutation: { set_headers: [raw('x-too-late', '1')] },
              body_mutation: text.includes('content_block_delta') ? { clear_body: true } : undefined,
            },
          },
        });
      },
      // One chunk per event, whatever TCP did to the upstream writes.
      { processingMode: { response_body_mode: 'STREAMED' }, responseChunking: { split: splitEvents } },
      { vendor: sseUpstream },
    );
    const res = await r.send({ body: '{}' });
    expect(res.headers['x-too-late']).toBeUndefined();
    expect(res.body.toString()).toBe(EVENTS.filter((e) => !e.includes('content_block_delta')).join(''));
  });

  it('removes content-length before the processor sees headers when STREAMED is configured', async () => {
    const r = await rig(passAll, { processingMode: { response_body_mode: 'STREAMED' } }, { vendor: jsonUpstream('{"ok":true}') });
    const res = await r.send({ body: '{}' });
    expect(res.body.toString()).toBe('{"ok":true}');
    expect(res.headers['content-length']).toBeUndefined();
    const headers = headerValues(r.processor.calls[0]?.received.find((m) => m.request === 'response_headers'));
    expect(headers.some(([k]) => k === 'content-length')).toBe(false);
  });
});

describe('BUFFERED response body', () => {
  it('sends the whole body once; the answer may change headers and body together', async () => {
    const replacement = '{"ok":"rewritten"}';
    const r = await rig(
      (m, call) => {
        if (m.request !== 'response_body') return call.send(pass(m));
        call.send({
          response_body: {
            response: {
              header_mutation: { set_headers: [raw('content-length', String(replacement.length)), raw('x-late', 'ok')] },
              body_mutation: { body: Buffer.from(replacement) },
            },
          },
        });
      },
      { processingMode: { response_body_mode: 'BUFFERED' } },
      { vendor: sseUpstream },
    );
    const res = await r.send({ body: '{}' });
    expect(res.body.toString()).toBe(replacement);
    expect(res.headers['x-late']).toBe('ok');
    const chunks = bodyMessages(r.processor.calls[0]?.received);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.body?.toString()).toBe(SSE);
    expect(chunks[0]?.end_of_stream).toBe(true);
  });

  it('refuses a mutated body that contradicts the kept content-length: 500', async () => {
    const r = await rig(
      (m, call) => call.send(m.request === 'response_body' ? { response_body: { response: { body_mutation: { body: Buffer.from('longer than before') } } } } : pass(m)),
      { processingMode: { response_body_mode: 'BUFFERED' } },
      { vendor: jsonUpstream('{"ok":1}') },
    );
    expect((await r.send({ body: '{}' })).status).toBe(500);
  });
});

describe('mode_override', () => {
  const switchToStreamed = (m: ProcessingRequest, call: ProcessorCall): void => {
    call.send(m.request === 'response_headers' ? { response_headers: { response: {} }, mode_override: { response_body_mode: 'STREAMED' } } : pass(m));
  };

  it('is honoured in a headers answer when allowModeOverride is set', async () => {
    const r = await rig(switchToStreamed, { allowModeOverride: true }, { vendor: sseUpstream });
    const res = await r.send({ body: '{}' });
    expect(res.body.toString()).toBe(SSE);
    expect(bodyMessages(r.processor.calls[0]?.received).length).toBeGreaterThan(1);
    expect(r.harness.stats.mode_overrides_applied).toBe(1);
  });

  it('is ignored without allowModeOverride (Envoy default)', async () => {
    const r = await rig(switchToStreamed, {}, { vendor: sseUpstream });
    const res = await r.send({ body: '{}' });
    expect(res.body.toString()).toBe(SSE);
    expect(bodyMessages(r.processor.calls[0]?.received)).toHaveLength(0);
    expect(r.harness.stats.mode_overrides_ignored).toBe(1);
  });

  it('is ignored in a body answer', async () => {
    const r = await rig(
      (m, call) => call.send(m.request === 'request_body' ? { request_body: {}, mode_override: { response_body_mode: 'STREAMED' } } : pass(m)),
      { allowModeOverride: true },
      { vendor: sseUpstream },
    );
    await r.send({ body: '{}' });
    expect(bodyMessages(r.processor.calls[0]?.received)).toHaveLength(0);
    expect(r.harness.stats.mode_overrides_ignored).toBe(1);
  });

  it('takes body modes literally: an override at request headers that names only the response turns the request body off', async () => {
    const r = await rig(
      (m, call) => call.send(m.request === 'request_headers' ? { request_headers: {}, mode_override: { response_body_mode: 'STREAMED' } } : pass(m)),
      { allowModeOverride: true },
      { vendor: sseUpstream },
    );
    await r.send({ body: '{"model":"x"}' });
    const kinds = r.processor.calls[0]?.received.map((m) => m.request) ?? [];
    expect(kinds).not.toContain('request_body');
    expect(kinds).toContain('response_body');
  });

  it('an override to a body mode the harness does not reproduce fails loudly', async () => {
    const r = await rig((m, call) => call.send(m.request === 'response_headers' ? { response_headers: {}, mode_override: { response_body_mode: 'FULL_DUPLEX_STREAMED' } } : pass(m)), {
      allowModeOverride: true,
    });
    expect((await r.send({ body: '{}' })).status).toBe(500);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.responseCodeDetails).toContain('FULL_DUPLEX_STREAMED');
  });

  it('switching to STREAMED leaves content-length in place unless the processor removes it', async () => {
    const body = '{"ok":true}';
    const r = await rig(switchToStreamed, { allowModeOverride: true }, { vendor: jsonUpstream(body) });
    const res = await r.send({ body: '{}' });
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.body.toString()).toBe(body);
  });
});
