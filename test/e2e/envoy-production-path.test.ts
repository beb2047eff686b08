/**
 * What a real Envoy in front of `gw extproc` does differently from a plain
 * proxy, end to end through the harness configured from the generated
 * bootstrap (generatedConfigHarnessOptions): TLS providers reached through
 * the dynamic forward proxy with SNI, certificate checks and `:scheme`,
 * trailers on requests and responses, a new provider address without any
 * Envoy change, and a caller that tries to steer the upstream itself.
 */
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DYNAMIC_CLUSTERS } from '../../src/envoy/cluster-name.js';
import { generatedConfigHarnessOptions } from '../support/envoy-harness/generated-config.js';
import { startEnvoyHarness, type EnvoyHarness, type EnvoyHarnessOptions } from '../support/envoy-harness/index.js';
import { writeGatewayConfig, type CredentialSpec } from '../support/gateway-config.js';
import { spawnGw, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { makeTestCerts, type TestCerts } from '../support/test-certs.js';

const BODY = { model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] };

/** A provider whose JSON answer ends with HTTP/1.1 trailers (as some proxies and gRPC-web fronts send). */
async function startTrailerProvider(): Promise<{ url: string; hits: number; close(): Promise<void> }> {
  const state = { hits: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.hits += 1;
      const message = {
        id: 'msg_trailers',
        type: 'message',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 11, output_tokens: 3 },
      };
      res.writeHead(200, { 'content-type': 'application/json', trailer: 'x-provider-checksum' });
      res.write(JSON.stringify(message));
      res.addTrailers({ 'x-provider-checksum': 'abc123' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return state.hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** POST with a chunked body that ends with trailers (what fetch cannot send). */
function postWithTrailers(url: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked', trailer: 'x-client-digest' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.write(JSON.stringify(body));
    req.addTrailers({ 'x-client-digest': 'sha256=0000' });
    req.end();
  });
}

describe('the Envoy production path, through the harness configured from the generated bootstrap', () => {
  let certs: TestCerts;
  let otherCerts: TestCerts;
  let tlsProvider: MockProvider;
  let wrongCaProvider: MockProvider;
  let plainProvider: MockProvider;
  let otherCompanyProvider: MockProvider;
  let intruder: MockProvider;
  let lateProvider: MockProvider;
  let trailerProvider: Awaited<ReturnType<typeof startTrailerProvider>>;
  let processor: GatewayProcess;
  let configFile: string;
  let credentials: CredentialSpec[];
  let token: string;
  let port: string;
  const harnesses: EnvoyHarness[] = [];

  async function harness(extra: Partial<EnvoyHarnessOptions> = {}): Promise<EnvoyHarness> {
    const h = await startEnvoyHarness({ processor: `127.0.0.1:${port}`, ...generatedConfigHarnessOptions(), upstreamCa: certs.caPem, messageTimeoutMs: 10_000, ...extra });
    harnesses.push(h);
    return h;
  }

  function post(h: EnvoyHarness, model: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ ...BODY, model }),
    });
  }

  beforeAll(async () => {
    certs = makeTestCerts();
    otherCerts = makeTestCerts();
    const tls = { cert: readFileSync(certs.certFile, 'utf8'), key: readFileSync(certs.keyFile, 'utf8') };
    tlsProvider = await startMockProvider({}, tls);
    // Signed by a CA Envoy does not trust.
    wrongCaProvider = await startMockProvider({}, { cert: readFileSync(otherCerts.certFile, 'utf8'), key: readFileSync(otherCerts.keyFile, 'utf8') });
    plainProvider = await startMockProvider({ models: ['z-ai/glm-4.6'] });
    otherCompanyProvider = await startMockProvider();
    intruder = await startMockProvider();
    lateProvider = await startMockProvider({ models: ['d-model'] });
    trailerProvider = await startTrailerProvider();
    credentials = [
      { name: 'vendor-tls', provider: 'vendor', baseUrl: tlsProvider.url, secret: 'sk-ant-api03-tls-vendor-0000000000' },
      { name: 'agg-plain', provider: 'provider_a', baseUrl: plainProvider.url, secret: 'sk-or-plain-agg-000000000000000000' },
      { name: 'bad-ca', provider: 'provider_b', baseUrl: wrongCaProvider.url, secret: 'sk-b-bad-ca-0000000000000000000000', models: ['b-model'] },
      { name: 'trailers', provider: 'provider_c', baseUrl: trailerProvider.url, secret: 'sk-c-trailers-00000000000000000000', models: ['c-model'] },
      // Another company's credential: its host must stay out of acme's reach.
      { name: 'globex-key', provider: 'vendor', baseUrl: otherCompanyProvider.url, secret: 'sk-ant-api03-globex-000000000000000', namespace: 'globex' },
    ];
    const config = writeGatewayConfig({ credentials });
    configFile = config.file;
    token = config.tokens.alice as string;
    processor = await spawnGw('extproc', configFile);
    port = processor.output.map((l) => /listening on [^:]+:(\d+)/.exec(l)?.[1]).find(Boolean) as string;
  });

  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await processor?.stop();
    for (const p of [tlsProvider, wrongCaProvider, plainProvider, otherCompanyProvider, intruder, lateProvider]) await p?.close();
    await trailerProvider?.close();
  });

  it('reaches a TLS provider by the dynamic forward proxy: SNI and certificate name from its host, :scheme https', async () => {
    const h = await harness();
    const res = await post(h, 'claude-haiku-4-5');
    expect(res.status, await res.clone().text()).toBe(200);
    await res.text();
    const seen = tlsProvider.messageRequests().at(-1);
    expect(seen?.scheme).toBe('https');
    expect(seen?.servername).toBe('localhost');
    expect(seen?.headers[':authority'] ?? seen?.headers.host).toBe(new URL(tlsProvider.url).host);
    expect(seen?.headers['x-gw-upstream']).toBeUndefined();
    expect(seen?.headers['x-gw-upstream-host']).toBeUndefined();
    await h.idle();
    expect(h.accessLog.at(-1)).toMatchObject({ cluster: DYNAMIC_CLUSTERS.https, upstreamHost: new URL(tlsProvider.url).host, status: 200 });
  });

  it("without scheme_header_transformation the caller's http :scheme reaches the TLS provider, which refuses it", async () => {
    const h = await harness({ schemeMatchUpstream: false });
    const res = await post(h, 'claude-haiku-4-5');
    expect(res.status).toBe(400);
    await res.text();
    expect(tlsProvider.messageRequests().at(-1)?.scheme).toBe('http');
  });

  it('refuses a provider certificate from a CA it does not trust: 502 upstream_unreachable in our shape, nothing delivered', async () => {
    const h = await harness();
    const before = wrongCaProvider.seen.length;
    const res = await post(h, 'provider_b:b-model');
    // Envoy's own 503 (response flag UF), rewritten by local_reply_config; the processor sees
    // its headers and leaves them: it is the gateway's answer, not the provider's.
    expect(res.status).toBe(502);
    expect(res.headers.get('x-gw-source')).toBe('gateway');
    expect(res.headers.get('x-gw-fault')).toBe('upstream_unreachable');
    const body = (await res.json()) as { source: string; fault: string; request_id: string; error: { message: string } };
    expect(body).toMatchObject({ source: 'gateway', fault: 'upstream_unreachable', request_id: res.headers.get('x-gw-request-id') });
    expect(body.error.message).toMatch(/^gw: .*TLS_error/);
    expect(wrongCaProvider.seen.length).toBe(before);
  });

  it('decides a chunked HTTP/1 request that ends with trailers: the codec drops them (enable_trailers unset) and the body ends the stream', async () => {
    const h = await harness();
    const before = plainProvider.messageRequests().length;
    const res = await postWithTrailers(h.url, token, { ...BODY, model: 'provider_a:z-ai/glm-4.6' });
    expect(res.status, res.text).toBe(200);
    expect(plainProvider.messageRequests().length).toBe(before + 1);
    // An HTTP/1 upstream gets no trailers: our clusters do not set enable_trailers.
    expect(plainProvider.messageRequests().at(-1)?.trailers).toBeUndefined();
  });

  it('decides a request whose trailers reach the processor (BUFFERED body without end_of_stream), and no caller trailer reaches the provider', async () => {
    // Trailers reach the filters from an HTTP/2 caller, or from HTTP/1 with enable_trailers:
    // the harness's front is HTTP/1, so it stands for that with the codec option on.
    const h = await harness({ downstreamHttp1Trailers: true });
    const res = await postWithTrailers(h.url, token, { ...BODY, model: 'claude-haiku-4-5' });
    expect(res.status, res.text).toBe(200);
    const seen = tlsProvider.messageRequests().at(-1);
    expect(seen?.trailers ?? {}).toEqual({});
    expect(JSON.parse(seen?.body.toString('utf8') ?? '{}')).toMatchObject({ model: 'claude-haiku-4-5' });
  });

  it.each([
    ['dropped by the HTTP/1 codec (enable_trailers unset)', false, 'trailer-meter-dropped'],
    ["delivered to the processor (as an HTTP/2 provider's would be)", true, 'trailer-meter'],
  ])('meters a response that ends with trailers as complete, not as a disconnect: trailers %s', async (_how, delivered, application) => {
    const h = await harness({ upstreamHttp1Trailers: delivered });
    const res = await post(h, 'provider_c:c-model', { 'x-gw-application': application });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { usage: { input_tokens: number } }).usage.input_tokens).toBe(11);
    let record: Record<string, unknown> | undefined;
    for (let i = 0; i < 100 && !record; i++) {
      record = (await waitForLogs(processor, 1)).find((r) => r.application === application);
      if (!record) await new Promise((r) => setTimeout(r, 50));
    }
    expect(record).toMatchObject({ outcome: 'complete', input_tokens: 11, output_tokens: 3, status: 200 });
  });

  it('a caller cannot pick the upstream: client routing and x-envoy-* headers are dropped before the route is matched', async () => {
    const h = await harness();
    const own = plainProvider.messageRequests().length;
    for (const target of [intruder.url, otherCompanyProvider.url]) {
      const res = await post(h, 'provider_a:z-ai/glm-4.6', {
        'x-gw-upstream': DYNAMIC_CLUSTERS.http,
        'x-gw-upstream-host': new URL(target).host,
        'x-envoy-upstream-rq-timeout-ms': '1',
        'x-envoy-retry-on': '5xx',
      });
      expect(res.status).toBe(200);
      await res.text();
    }
    expect(plainProvider.messageRequests().length).toBe(own + 2);
    expect(intruder.seen).toHaveLength(0);
    expect(otherCompanyProvider.seen).toHaveLength(0);
    const seen = plainProvider.messageRequests().at(-1);
    expect(Object.keys(seen?.headers ?? {}).filter((k) => k.startsWith('x-envoy-') || k.startsWith('x-gw-upstream'))).toEqual([]);
  });

  it('a request the processor lets through undecided ends at the catch-all (500 internal_error in our shape), even with routing headers from the client', async () => {
    // A processor that closes every stream cleanly: Envoy continues without it (reference §2.8).
    const { startScriptedProcessor } = await import('../integration/envoy-harness/fixtures.js');
    const quitter = await startScriptedProcessor((_m, call) => call.finish());
    try {
      const h = await startEnvoyHarness({ processor: quitter.address, ...generatedConfigHarnessOptions(), messageTimeoutMs: 5_000 });
      harnesses.push(h);
      const res = await fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-gw-upstream': DYNAMIC_CLUSTERS.http, 'x-gw-upstream-host': new URL(intruder.url).host, 'content-type': 'application/json' },
        body: JSON.stringify(BODY),
      });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-gw-fault')).toBe('internal_error');
      expect(await res.json()).toMatchObject({
        type: 'error',
        source: 'gateway',
        fault: 'internal_error',
        error: { type: 'api_error', message: expect.stringMatching(/^gw: .*\(envoy: direct_response\)$/) },
      });
      expect(intruder.seen).toHaveLength(0);
    } finally {
      await quitter.close();
    }
  });

  it('serves a new provider address named by a new ProviderCredential after a reload, with no Envoy change', async () => {
    const h = await harness();
    const late = (await post(h, 'provider_d:d-model')).status;
    expect(late).not.toBe(200);
    credentials.push({ name: 'late-key', provider: 'provider_d', baseUrl: lateProvider.url, secret: 'sk-d-late-000000000000000000000000', models: ['d-model'] });
    const rewritten = writeGatewayConfig({ credentials });
    // Same tokens as before: keep the file's token documents, swap in the new credentials.
    const original = readFileSync(configFile, 'utf8');
    const tokenDocs = original.split('---\n').filter((d) => d.includes('kind: GatewayToken'));
    const nonTokenDocs = readFileSync(rewritten.file, 'utf8')
      .split('---\n')
      .filter((d) => !d.includes('kind: GatewayToken'));
    writeFileSync(configFile, [...nonTokenDocs, ...tokenDocs].join('---\n'));
    processor.child.kill('SIGHUP');
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      const res = await post(h, 'provider_d:d-model');
      status = res.status;
      await res.text();
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    expect(lateProvider.messageRequests()).toHaveLength(1);
    await h.idle();
    expect(h.accessLog.at(-1)).toMatchObject({ cluster: DYNAMIC_CLUSTERS.http, upstreamHost: new URL(lateProvider.url).host });
  });
});
