/**
 * A client that goes away mid-stream (reference §2.13): the gRPC call is
 * cancelled, the processor never gets an end_of_stream, the upstream
 * request is abandoned.
 */
import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { passAll, useRig } from './fixtures.js';

const rig = useRig();

describe('client disconnect', () => {
  it('cancels the gRPC call without ever delivering end_of_stream', async () => {
    let releaseUpstream: () => void = () => undefined;
    const upstreamHeld = new Promise<void>((resolve) => {
      releaseUpstream = resolve;
    });
    const r = await rig(
      passAll,
      { processingMode: { response_body_mode: 'STREAMED' } },
      {
        vendor: async (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: message_start\ndata: {}\n\n');
          await upstreamHeld; // the rest of the stream would come later
          res.end('event: message_stop\ndata: {}\n\n');
        },
      },
    );

    await new Promise<void>((resolve, reject) => {
      const req = request(new URL('/v1/messages', r.harness.url), { method: 'POST', headers: { 'content-length': 2 } });
      req.on('error', () => undefined);
      req.on('response', (res) => {
        res.once('data', () => {
          // First event arrived: the client hangs up.
          req.destroy();
          resolve();
        });
        res.on('error', () => undefined);
      });
      req.on('close', () => resolve());
      setTimeout(() => reject(new Error('no first event')), 10_000).unref();
      req.end('{}');
    });

    const call = r.processor.calls[0];
    await call?.over;
    // The upstream notices the dropped connection on its own schedule.
    await vi.waitFor(() => expect(r.upstreams.vendor?.abandoned).toBe(1), { timeout: 10_000 });
    releaseUpstream();
    await r.harness.idle();

    expect(call?.cancelled).toBe(true);
    const bodies = call?.received.filter((m) => m.request === 'response_body') ?? [];
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.some((m) => m.response_body?.end_of_stream)).toBe(false);
    expect(r.harness.stats.downstream_resets).toBe(1);
    expect(r.harness.accessLog[0]?.reset).toBe(true);
  });

  it('cancels the call while the processor still owes an answer', async () => {
    const r = await rig(() => undefined); // never answers
    await new Promise<void>((resolve) => {
      const req = request(new URL('/v1/messages', r.harness.url), { method: 'POST', headers: { 'content-length': 2 } });
      req.on('error', () => resolve());
      req.end('{}');
      // Hang up once the processor has the request headers.
      const poll = setInterval(() => {
        if ((r.processor.calls[0]?.received.length ?? 0) > 0) {
          clearInterval(poll);
          req.destroy();
          resolve();
        }
      }, 5);
    });
    await r.processor.calls[0]?.over;
    await r.harness.idle();
    expect(r.processor.calls[0]?.cancelled).toBe(true);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    expect(r.harness.stats.message_timeouts).toBe(0);
  });
});
