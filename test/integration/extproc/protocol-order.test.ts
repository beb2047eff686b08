import * as grpc from '@grpc/grpc-js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/auth/token.js';
import { GRPC_TRANSPORTS } from '../../../src/config/serve-config.js';
import { openProcessStream, type HeaderMap, type ProcessingRequest, type ProcessingResponse } from '../../../src/extproc/proto.js';
import { startPlanningProcessor, type PlanningProcessor } from '../../support/extproc-processor.js';

/**
 * The ext_proc protocol's order (request_headers first and once; no empty
 * message; the stream ends with an immediate_response) is enforced by ending the stream
 * with INVALID_ARGUMENT and a reason, never by silence. Real gRPC on loopback
 * against the real processor; the provider is never contacted (nothing here
 * forwards: the processor only plans).
 */

const TOKEN = generateToken();
const FIXED_SEED = 20_20;

function headers(pairs: Record<string, string>): HeaderMap {
  return { headers: Object.entries(pairs).map(([key, value]) => ({ key, raw_value: Buffer.from(value, 'latin1') })) };
}

const MESSAGES = {
  authed: { request_headers: { headers: headers({ ':method': 'POST', ':path': '/v1/messages', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }) } },
  anonymous: { request_headers: { headers: headers({ ':method': 'POST', ':path': '/v1/messages', 'content-type': 'application/json' }) } },
  body: { request_body: { body: Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })), end_of_stream: true } },
  bodyChunk: { request_body: { body: Buffer.from('{"model":'), end_of_stream: false } },
  requestTrailers: { request_trailers: {} },
  responseHeaders: { response_headers: { headers: headers({ ':status': '200', 'content-type': 'application/json' }) } },
  responseBody: { response_body: { body: Buffer.from('{}'), end_of_stream: true } },
  responseTrailers: { response_trailers: {} },
  empty: {},
} satisfies Record<string, ProcessingRequest>;
type Name = keyof typeof MESSAGES;

interface StreamResult {
  code: number;
  details: string;
  responses: ProcessingResponse[];
}

describe.each(GRPC_TRANSPORTS)('ext_proc protocol order (%s transport)', (transport) => {
  /** Its `failures` are stream failures the server logged: a protocol violation is answered (INVALID_ARGUMENT), never one of these. */
  let processor: PlanningProcessor;
  let client: grpc.Client;

  beforeAll(async () => {
    processor = await startPlanningProcessor(TOKEN, transport);
    client = new grpc.Client(processor.server.address, grpc.credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    await processor?.server.shutdown(1000);
  });

  /** Send the messages in order, half-close, and collect every answer and the final status. */
  function exchange(names: readonly Name[]): Promise<StreamResult> {
    return new Promise((resolve, reject) => {
      const call = openProcessStream(client, { deadline: Date.now() + 10_000 });
      const responses: ProcessingResponse[] = [];
      call.on('data', (r: ProcessingResponse) => responses.push(r));
      call.on('error', () => undefined);
      call.on('status', (s: grpc.StatusObject) => resolve({ code: s.code, details: s.details, responses }));
      try {
        for (const name of names) call.write(MESSAGES[name]);
        call.end();
      } catch (error) {
        reject(error);
      }
    });
  }

  it.each([
    [['body'], 'request_body before request_headers'],
    [['bodyChunk', 'authed'], 'request_body before request_headers'],
    [['empty'], 'empty ProcessingRequest'],
    [['authed', 'empty'], 'empty ProcessingRequest'],
    [['responseHeaders'], 'response_headers before request_headers'],
    [['responseBody'], 'response_body before request_headers'],
    [['responseTrailers'], 'response_trailers before request_headers'],
    [['authed', 'authed'], 'request_headers sent twice'],
  ] as Array<[Name[], string]>)('ends %j with INVALID_ARGUMENT: %s', async (names, reason) => {
    const result = await exchange(names);
    expect(result.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(result.details).toContain(reason);
    expect(result.details.startsWith('gw: ext_proc protocol: ')).toBe(true);
  });

  it('ends the stream with OK right after an immediate_response and processes nothing that follows', async () => {
    for (const next of ['body', 'responseHeaders', 'responseBody', 'authed'] as const) {
      const result = await exchange(['anonymous', next]);
      // The immediate_response, with the dynamic metadata that marks it as the processor's own reply.
      expect(result.responses.map((r) => Object.keys(r).filter((k) => k !== 'response' && k !== 'dynamic_metadata'))).toEqual([['immediate_response']]);
      expect(result.responses[0]?.dynamic_metadata?.fields).toHaveProperty(['gw.local_reply']);
      expect(result.responses[0]?.immediate_response?.details).toBe('gw_no_session');
      expect(result.code, next).toBe(grpc.status.OK);
    }
  });

  it('ends the stream after an immediate_response even when the peer never half-closes', async () => {
    const result = await new Promise<StreamResult>((resolve) => {
      const call = openProcessStream(client, { deadline: Date.now() + 20_000 });
      const responses: ProcessingResponse[] = [];
      call.on('data', (r: ProcessingResponse) => responses.push(r));
      call.on('error', () => undefined);
      call.on('status', (s: grpc.StatusObject) => resolve({ code: s.code, details: s.details, responses }));
      call.write(MESSAGES.anonymous);
    });
    expect(result.responses[0]?.immediate_response?.details).toBe('gw_no_session');
    // Before, the stream stayed open until the peer's deadline (DEADLINE_EXCEEDED).
    expect(result.code).toBe(grpc.status.OK);
  });

  it('still ends a well-ordered stream with OK', async () => {
    const result = await exchange(['authed', 'body', 'responseHeaders', 'responseBody']);
    expect(result.code).toBe(grpc.status.OK);
    expect(result.responses.map((r) => Object.keys(r).find((k) => k !== 'response' && k !== 'mode_override'))).toEqual(['request_headers', 'request_body', 'response_headers', 'response_body']);
  });

  it('ends any sequence of messages with a status (OK, or INVALID_ARGUMENT exactly when the order is broken), never with silence', { timeout: 120_000 }, async () => {
    const sequence = fc.array(fc.constantFrom(...(Object.keys(MESSAGES) as Name[])), { minLength: 1, maxLength: 8 });
    const property = fc.asyncProperty(sequence, async (names) => {
      const result = await exchange(names);
      // Every message gets exactly one answer until the stream ends, so the answer's index is its message's.
      expect(result.responses.length).toBeLessThanOrEqual(names.length);
      const immediate = result.responses.findIndex((r) => r.immediate_response !== undefined);
      if (immediate >= 0) expect(immediate).toBe(result.responses.length - 1);
      // An immediate_response ends the stream with OK (whatever follows is not read); before it, no message broke the order.
      const broken = immediate >= 0 ? false : expectedViolation(names);
      expect(result.code, `${names.join(',')}: ${result.details}`).toBe(broken ? grpc.status.INVALID_ARGUMENT : grpc.status.OK);
    });
    const randomSeed = Date.now() ^ (Math.random() * 0x7fffffff);
    for (const seed of [FIXED_SEED, randomSeed]) {
      try {
        await fc.assert(property, { seed, numRuns: 150 });
      } catch (error) {
        console.error(`[protocol-order] property failed with seed ${seed} (rerun with it to reproduce)`);
        throw error;
      }
    }
    // The server took all of it and still serves.
    expect((await exchange(['authed', 'body', 'responseHeaders', 'responseBody'])).code).toBe(grpc.status.OK);
    expect(processor.server.inFlight()).toBe(0);
  });

  it('answers every violation above with a status and logs no stream failure', () => {
    expect(processor.failures).toEqual([]);
  });
});

/**
 * The order rules restated as a model (immediate responses are read from the
 * answers, since a body's fate is the pipeline's): request_headers first and
 * once; never an empty message; no request body after the request's end.
 */
function expectedViolation(names: readonly Name[]): boolean {
  let sawHeaders = false;
  let ended = false;
  for (const name of names) {
    if (name === 'empty') return true;
    if (name === 'authed' || name === 'anonymous') {
      if (sawHeaders) return true;
      sawHeaders = true;
      continue;
    }
    if (!sawHeaders) return true;
    if (name === 'body' || name === 'bodyChunk') {
      if (ended) return true;
      if (name === 'body') ended = true;
    }
  }
  return false;
}
