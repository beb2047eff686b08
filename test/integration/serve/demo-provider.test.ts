import Anthropic from '@anthropic-ai/sdk';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoProvider, DEMO_LABEL } from '../../../src/serve/demo-provider.js';
import { writeGatewayConfig, type TestConfig } from '../../support/gateway-config.js';
import { startGateway, waitForLogs, type GatewayProcess } from '../../support/gateway-process.js';

/** make run without a key: the real SDK through a real gw serve to the demo provider, streaming and not. */
describe('built-in demo provider behind gw serve', () => {
  let demo: Server;
  let gateway: GatewayProcess;
  let config: TestConfig;
  let client: Anthropic;

  beforeAll(async () => {
    demo = createDemoProvider();
    await new Promise<void>((resolve) => demo.listen(0, '127.0.0.1', resolve));
    config = writeGatewayConfig({
      tokens: ['alice'],
      credentials: [{ name: 'demo', provider: 'vendor', baseUrl: `http://127.0.0.1:${(demo.address() as AddressInfo).port}`, secret: 'demo-provider-needs-no-key' }],
    });
    gateway = await startGateway(config.file);
    client = new Anthropic({ baseURL: gateway.url, authToken: config.tokens.alice as string, apiKey: null, maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway?.stop();
    await new Promise<void>((resolve) => (demo ? demo.close(() => resolve()) : resolve()));
  });

  it('answers a plain request with the labelled canned text and real usage numbers', async () => {
    const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'hello' }] });
    const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text.startsWith(DEMO_LABEL)).toBe(true);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBe(text.split(/\s+/).filter((w) => w !== '').length);
  });

  it('streams the same text event by event, cut at max_tokens, and the call reaches Logs', async () => {
    const stream = client.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hello' }] });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const final = await stream.finalMessage();
    expect(deltas).toHaveLength(5);
    expect(deltas.join('')).toBe(DEMO_LABEL.split(' ').slice(0, 5).join(' ') + ' ');
    expect(final.stop_reason).toBe('max_tokens');
    const logs = await waitForLogs(gateway, 2);
    expect(logs.every((r) => r.status === 200 && r.outcome === 'complete')).toBe(true);
  });
});
