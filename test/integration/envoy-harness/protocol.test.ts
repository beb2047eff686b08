/**
 * The stream protocol: one matching answer per message, the message timer,
 * gRPC failures and clean closes, failure_mode_allow (reference §2.1, §2.7,
 * §2.8).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { startEnvoyHarness } from '../../support/envoy-harness/index.js';
import { deadAddress, pass, passAll, send, startScriptedProcessor, startUpstream, useRig } from './fixtures.js';

const rig = useRig();

describe('one answer per message', () => {
  it('an answer of the wrong kind is a protocol error: 500, upstream never called', async () => {
    const r = await rig((m, call) => call.send(m.request === 'request_headers' ? { request_body: {} } : pass(m)));
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(500);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    expect(r.harness.stats.spurious_msgs_received).toBe(1);
  });

  it('a second answer to the same message is a protocol error', async () => {
    const r = await rig((m, call) => {
      call.send(pass(m));
      if (m.request === 'request_headers') call.send(pass(m));
    });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(500);
    expect(r.harness.stats.spurious_msgs_received).toBe(1);
  });

  it('an answer with no oneof member set is a protocol error', async () => {
    const r = await rig((m, call) => call.send(m.request === 'request_headers' ? {} : pass(m)));
    expect((await r.send({ body: '{}' })).status).toBe(500);
  });

  it('closes the stream after the last expected answer (response body NONE)', async () => {
    const r = await rig(passAll);
    expect((await r.send({ body: '{}' })).status).toBe(200);
    const call = r.processor.calls[0];
    await call?.over;
    expect(call?.received.map((m) => m.request)).toEqual(['request_headers', 'request_body', 'response_headers']);
    expect(call?.cancelled).toBe(true);
    expect(r.harness.stats.streams_started).toBe(1);
    expect(r.harness.stats.streams_closed).toBe(1);
  });

  it('opens no stream when nothing is to be sent', async () => {
    const r = await rig(passAll, {
      processingMode: { request_header_mode: 'SKIP', request_body_mode: 'NONE', response_header_mode: 'SKIP' },
    });
    expect((await r.send({ body: '{}' })).status).toBe(200);
    expect(r.processor.calls).toHaveLength(0);
  });
});

describe('message timeout', () => {
  it('answers 504 when the processor does not answer in time', async () => {
    const r = await rig(() => undefined, { messageTimeoutMs: 300 });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(504);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    expect(r.harness.stats.message_timeouts).toBe(1);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.responseCodeDetails).toBe('ext_proc_error_per-message_timeout_exceeded');
  });

  it('with failure_mode_allow a timeout lets the request through unmodified', async () => {
    const r = await rig(() => undefined, { messageTimeoutMs: 300, failureModeAllow: true });
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(200);
    expect(r.harness.stats.failure_mode_allowed).toBe(1);
  });

  it('override_message_timeout extends the timer when max_message_timeout allows it', async () => {
    const r = await rig(
      async (m, call) => {
        if (m.request === 'request_headers') {
          call.send({ override_message_timeout: { seconds: '20' } });
          // Well past the 300 ms message_timeout, well inside the override.
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        call.send(pass(m));
      },
      { messageTimeoutMs: 300, maxMessageTimeoutMs: 30_000 },
    );
    expect((await r.send({ body: '{}' })).status).toBe(200);
    expect(r.harness.stats.override_message_timeout_received).toBe(1);
  });

  it('override_message_timeout is ignored without max_message_timeout', async () => {
    const r = await rig(
      (m, call) => {
        if (m.request === 'request_headers') call.send({ override_message_timeout: { seconds: '20' } });
      },
      { messageTimeoutMs: 300 },
    );
    expect((await r.send({ body: '{}' })).status).toBe(504);
    expect(r.harness.stats.override_message_timeout_ignored).toBe(1);
  });
});

describe('processor failures', () => {
  it('a gRPC error status is a 500 local reply (fail closed)', async () => {
    const r = await rig((_m, call) => call.fail(grpc.status.INTERNAL, 'boom'));
    const res = await r.send({ body: '{}' });
    expect(res.status).toBe(500);
    expect(r.upstreams.vendor?.requests).toHaveLength(0);
    await r.harness.idle();
    expect(r.harness.accessLog[0]?.responseCodeDetails).toBe('ext_proc_error_gRPC_error_13{boom}');
  });

  it('status_on_error changes the status of such replies', async () => {
    const r = await rig((_m, call) => call.fail(grpc.status.INTERNAL, 'boom'), { statusOnError: 503 });
    expect((await r.send({ body: '{}' })).status).toBe(503);
  });

  it('a clean close by the processor means: continue without it', async () => {
    const r = await rig((_m, call) => call.finish());
    const res = await r.send({ body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(r.upstreams.vendor?.requests[0]?.body.toString()).toBe('{"a":1}');
    expect(r.processor.calls[0]?.received).toHaveLength(1);
  });

  it('an unreachable processor is a 500', async () => {
    const upstream = await startUpstream('vendor');
    const harness = await startEnvoyHarness({
      processor: await deadAddress(),
      clusters: { vendor: upstream.url },
      defaultCluster: 'vendor',
      messageTimeoutMs: 5_000,
    });
    try {
      expect((await send(harness.url, { body: '{}' })).status).toBe(500);
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await harness.close();
      await upstream.close();
    }
  });

  it('reaches a processor on a unix socket', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'extproc-sock-'));
    const socket = join(dir, 'p.sock');
    const processor = await startScriptedProcessor(passAll, `unix:${socket}`);
    const upstream = await startUpstream('vendor');
    const harness = await startEnvoyHarness({
      processor: socket,
      clusters: { vendor: upstream.url },
      defaultCluster: 'vendor',
      messageTimeoutMs: 5_000,
    });
    try {
      expect((await send(harness.url, { body: '{}' })).status).toBe(200);
      expect(processor.calls).toHaveLength(1);
    } finally {
      await harness.close();
      await upstream.close();
      await processor.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
