import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { ROOT, startGateway } from '../support/gateway-process.js';
import { DEFAULT_DELTAS, startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { DATA_PLANES } from './data-planes.js';

describe('the shipped example configuration', () => {
  let vendor: MockProvider;
  beforeAll(async () => {
    vendor = await startMockProvider();
  });
  afterAll(async () => {
    await vendor?.close();
  });

  it('serves the SDK end to end with the demo token from examples/gateway.yaml', async () => {
    const file = join(ROOT, 'examples', 'gateway.yaml');
    const demoToken = /^#\s+(gwct_[0-9A-Za-z]{46})$/m.exec(readFileSync(file, 'utf8'))?.[1];
    expect(demoToken).toBeDefined();
    const gateway = await startGateway(file, { env: { GW_VENDOR_BASE_URL: vendor.url, ANTHROPIC_API_KEY: 'sk-ant-api03-example-key-00000000' } });
    try {
      const client = new Anthropic({ baseURL: gateway.url, authToken: demoToken as string, apiKey: null, maxRetries: 0 });
      const stream = client.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      expect((await stream.finalMessage()).content[0]).toEqual({ type: 'text', text: DEFAULT_DELTAS.join('') });
      expect(vendor.messageRequests().at(-1)?.headers['x-api-key']).toBe('sk-ant-api03-example-key-00000000');
    } finally {
      await gateway.stop();
    }
  });
});

describe.each(DATA_PLANES)('graceful shutdown of $name', (plane) => {
  it('lets a stream in flight finish after SIGTERM, then exits cleanly', async () => {
    const vendor = await startMockProvider();
    vendor.behaviour = { kind: 'slow-stream', delayMs: 40 };
    const config = writeGatewayConfig({ credentials: [{ name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-shutdown-00000000000' }] });
    const gateway = await plane.start(config.file);
    try {
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.tokens.alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, stream: true, messages: [] }),
      });
      expect(res.status).toBe(200);
      const text = res.text();
      const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
      gateway.child.kill('SIGTERM');
      const body = await text;
      expect(body).toContain('event: message_stop');
      expect(await exited).toBe(0);
    } finally {
      await gateway.stop('SIGKILL');
      await vendor.close();
    }
  });
});
