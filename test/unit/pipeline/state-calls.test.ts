import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { GATEWAY_MESSAGES } from '../../../src/errors/messages.js';
import { failClosed, inBackground } from '../../../src/pipeline/state-calls.js';
import { RecordedEvents } from './support.js';

describe('failClosed', () => {
  it('passes the answer through', async () => {
    const events = new RecordedEvents();
    await expect(failClosed(events, 'lookup', () => Promise.resolve(42))).resolves.toBe(42);
    expect(events.stateErrors).toEqual([]);
  });

  it('turns a state failure into 503 unavailable and reports it under the operation', async () => {
    const events = new RecordedEvents();
    const broken = new Error('connection refused');
    const error = await failClosed(events, 'lease', () => Promise.reject(broken)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ fault: 'unavailable', status: 503, message: GATEWAY_MESSAGES.stateUnreachable });
    expect(events.stateErrors).toEqual([{ operation: 'lease', error: broken }]);
  });

  it('lets a gateway decision through as it is, unreported', async () => {
    const events = new RecordedEvents();
    const decision = new GatewayError('user_cap', 'gw: busy');
    await expect(failClosed(events, 'caller slot', () => Promise.reject(decision))).rejects.toBe(decision);
    expect(events.stateErrors).toEqual([]);
  });
});

describe('inBackground', () => {
  it('reports a failure under the operation and throws nothing', async () => {
    const events = new RecordedEvents();
    const broken = new Error('gone');
    let fail: (reason: unknown) => void = () => undefined;
    inBackground(events, 'lease renewal', new Promise<void>((_, reject) => (fail = reject)));
    expect(events.stateErrors).toEqual([]);
    fail(broken);
    await expect.poll(() => events.stateErrors).toEqual([{ operation: 'lease renewal', error: broken }]);
  });

  it('reports nothing when the work succeeds', async () => {
    const events = new RecordedEvents();
    const work = Promise.resolve();
    inBackground(events, 'slot release', work);
    await work;
    await Promise.resolve();
    expect(events.stateErrors).toEqual([]);
  });
});
