/**
 * Heads far past the header limits (thousands of fields, megabyte values)
 * over real gRPC on loopback: each is answered with our 431 and its stream
 * ends with a status at once, even from a peer that never half-closes (a
 * hostile ext_proc run saw such streams get neither within 1.5 s).
 */
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/auth/token.js';
import { GRPC_TRANSPORTS } from '../../../src/config/serve-config.js';
import { openProcessStream, type HeaderMap, type ProcessingRequest, type ProcessingResponse } from '../../../src/extproc/proto.js';
import { startPlanningProcessor, type PlanningProcessor } from '../../support/extproc-processor.js';

const TOKEN = generateToken();

function head(extra: Array<[string, string]>): ProcessingRequest {
  const base: Array<[string, string]> = [
    [':method', 'POST'],
    [':path', '/v1/messages'],
    ['authorization', `Bearer ${TOKEN}`],
    ['content-type', 'application/json'],
  ];
  const headers: HeaderMap = { headers: [...base, ...extra].map(([key, value]) => ({ key, raw_value: Buffer.from(value, 'latin1') })) };
  return { request_headers: { headers } };
}

describe.each(GRPC_TRANSPORTS)('ext_proc: hostile request heads (%s transport)', (transport) => {
  let processor: PlanningProcessor;
  let client: grpc.Client;

  beforeAll(async () => {
    processor = await startPlanningProcessor(TOKEN, transport);
    client = new grpc.Client(processor.server.address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 64 * 1024 * 1024, 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
  });

  afterAll(async () => {
    client?.close();
    await processor?.server.shutdown(1000);
  });

  /** One request_headers message, no half-close (as a hostile peer would): the answer and the status the server ends with. */
  function send(message: ProcessingRequest): Promise<{ code: number; responses: ProcessingResponse[] }> {
    return new Promise((resolve) => {
      // Generous: a stream left open runs into this deadline, which the test reads as the failure.
      const call = openProcessStream(client, { deadline: Date.now() + 60_000 });
      const responses: ProcessingResponse[] = [];
      call.on('data', (r: ProcessingResponse) => responses.push(r));
      call.on('error', () => undefined);
      call.on('status', (s: grpc.StatusObject) => resolve({ code: s.code, responses }));
      call.write(message);
    });
  }

  const many = (n: number, name: (i: number) => string, value: string): Array<[string, string]> => Array.from({ length: n }, (_, i) => [name(i), value]);
  const cases: Array<[string, Array<[string, string]>]> = [
    ['1,000 headers', many(1_000, (i) => `x-h-${i}`, 'v')],
    ['30,000 headers', many(30_000, (i) => `x-h-${i}`, 'v')],
    ['30,000 repeats of one header', many(30_000, () => 'x-same', 'v')],
    ['a 100 KB header value', [['x-big', 'a'.repeat(100_000)]]],
    ['a 4 MB header value', [['x-big', 'a'.repeat(4_000_000)]]],
  ];

  it.each(cases)('answers %s with 431 headers_too_large and ends the stream with OK', async (_name, extra) => {
    const result = await send(head(extra));
    expect(result.responses).toHaveLength(1);
    const reply = result.responses[0]?.immediate_response;
    // enums decode as their names (src/extproc/proto.ts).
    expect(reply?.status?.code).toBe('RequestHeaderFieldsTooLarge');
    expect(reply?.details).toBe('gw_headers_too_large');
    expect(JSON.parse(Buffer.from(reply?.body ?? '').toString()).error.type).toBe('invalid_request_error');
    expect(result.code).toBe(grpc.status.OK);
  });

  it('answers 47 such streams at once, each with its 431 and a status, and keeps serving', { timeout: 120_000 }, async () => {
    const results = await Promise.all(Array.from({ length: 47 }, (_, i) => send(head(cases[i % cases.length]?.[1] ?? []))));
    for (const result of results) {
      expect(result.responses[0]?.immediate_response?.details).toBe('gw_headers_too_large');
      expect(result.code).toBe(grpc.status.OK);
    }
    expect(processor.server.inFlight()).toBe(0);
    // An ordinary head still goes on to its body.
    const ordinary = await new Promise<ProcessingResponse[]>((resolve) => {
      const call = openProcessStream(client, { deadline: Date.now() + 60_000 });
      call.on('data', (r: ProcessingResponse) => {
        resolve([r]);
        call.cancel();
      });
      call.on('error', () => undefined);
      call.write(head([]));
    });
    expect(ordinary[0]?.request_headers).toBeDefined();
    expect(processor.failures).toEqual([]);
  });
});
