import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForwardedCallerHeader } from '../../../src/pipeline/forward-headers.js';
import { MAX_HEADERS_COUNT } from '../../../src/envoy/downstream-limits.js';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { logsCaughtUp, type GatewayProcess } from '../../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { classify, collectStderr, CRASH_PATTERN, fromFetch, fromRaw, healthy, isParserRefusal, rawExchange, waitUntil, type RawResponse } from '../../support/resilience.js';
import { PLANES } from './planes.js';

/**
 * One caller cannot shut off the company's credential (issue 20, point 1),
 * and ambiguous or oversized heads are refused, not guessed (point 2). The
 * provider here authenticates as a real one does, on every route, and keeps
 * only the first 2,000 headers of a request as Node's HTTP server does: a
 * key pushed out by caller headers would get 401.
 */

const SECRET = 'sk-ant-api03-poisoning-secret-KKKKKKKKKKKKKKKKKKKKKKKKK';
const BODY = JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
const FIXED_SEED = 2020;
const RUNS = 60;

/** Run a property with a fixed seed, then a fresh one; the failing seed is printed for a rerun. */
async function assertWithSeeds<T>(name: string, property: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  const randomSeed = (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
  for (const seed of [FIXED_SEED, randomSeed]) {
    try {
      await fc.assert(property, { seed, numRuns });
    } catch (error) {
      console.error(`[${name}] failed with seed ${seed}; rerun with { seed: ${seed} } to reproduce`);
      throw error;
    }
  }
}

async function metric(gateway: GatewayProcess, line: RegExp): Promise<number> {
  const text = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
  const match = new RegExp(`^${line.source} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

describe.each(PLANES)('no caller can poison the credential or be guessed at, through $name', (plane) => {
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let token: string;
  let stderr: string[];

  beforeAll(async () => {
    vendor = await startMockProvider({ keys: { accept: [SECRET] } });
    const config = writeGatewayConfig({
      settings: { callerConcurrency: { default: 50, queueWaitSeconds: 1 } },
      credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: vendor.url, secret: SECRET, maxConcurrency: 50 }],
    });
    token = config.tokens.alice as string;
    // One key check per credential for the whole file: every later 401 finds the check already done.
    gateway = await plane.launch(config.file, { env: { GW_KEY_CHECK_INTERVAL_MS: '3600000' } });
    stderr = collectStderr(gateway);
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
  });

  const forwarded = (): number => vendor.messageRequests().length;

  function raw(lines: string[], body = BODY): Promise<RawResponse> {
    const { host } = new URL(gateway.url);
    const head = [`POST /v1/messages HTTP/1.1`, `Host: ${host}`, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, ...lines, 'Connection: close', '', ''].join('\r\n');
    return rawExchange(gateway.url, Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)]));
  }

  async function ordinary(): Promise<{ status: number; source: string | null; fault: string | null }> {
    const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: BODY });
    await res.text();
    return { status: res.status, source: res.headers.get('x-gw-source'), fault: res.headers.get('x-gw-fault') };
  }

  it("refuses a head with thousands of extra headers with 431 (ours on gw serve, the codec's in front of Envoy); the key is never pushed out and stays healthy", { timeout: 60_000 }, async () => {
    // The harness's own HTTP front (like Envoy's) refuses heads over 16 KiB before us; stay under it there.
    const count = plane.parsesHttp ? 2500 : 150;
    const filler = Array.from({ length: count }, (_, i) => `x-filler-${i}: v`);
    const before = forwarded();
    const res = await raw([`Authorization: Bearer ${token}`, ...filler]);
    expect(res.status).toBe(431);
    // Behind Envoy the codec refuses more than max_headers_count fields itself, before the processor
    // sees the head; local_reply_config puts its answer in our shape too.
    expect(classify(fromRaw(res))).toBe('headers_too_large');
    if (!plane.parsesHttp) expect(isParserRefusal(res, false)).toBe(true);
    expect(forwarded()).toBe(before);
    expect(await ordinary()).toEqual({ status: 200, source: 'upstream', fault: null });
    expect(await metric(gateway, /gw_credential_unhealthy_total\{company="acme",credential="only-key"\}/)).toBe(0);
  });

  it("forwards a head just under the limit with the key, and none of the caller's own headers", async () => {
    const filler = Array.from({ length: 90 }, (_, i) => `x-filler-${i}: v`);
    const before = forwarded();
    const res = await raw([`Authorization: Bearer ${token}`, 'anthropic-beta: oauth-2025-04-20,tools-2024-04-04', 'X-Stainless-Lang: js', ...filler]);
    expect(res.status).toBe(200);
    const seen = vendor.messageRequests().slice(before);
    expect(seen).toHaveLength(1);
    const headers = seen[0]?.headers ?? {};
    expect(headers['x-api-key']).toBe(SECRET);
    expect(headers.authorization).toBeUndefined();
    // The caller cannot switch an API key to OAuth.
    expect(headers['anthropic-beta']).toBe('tools-2024-04-04');
    expect(headers['x-stainless-lang']).toBe('js');
    expect(Object.keys(headers).filter((h) => h.startsWith('x-filler-'))).toEqual([]);
  });

  it('relays a caller-provoked provider 401 untouched, confirms nothing and keeps serving with the same key', { timeout: 60_000 }, async () => {
    vendor.behaviour = { kind: 'status', status: 401, errorType: 'authentication_error', message: 'provoked by this request' };
    try {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: BODY });
        const text = await res.text();
        expect(res.status).toBe(401);
        expect(classify(fromFetch(res, text))).toBeNull();
        // The provider's own bytes, as it sent them.
        expect(JSON.parse(text)).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'provoked by this request' } });
        expect(res.headers.get('request-id')).toBe('req_mock_err');
      }
    } finally {
      vendor.behaviour = { kind: 'normal' };
    }
    // The gateway checked the key once, on its own, and the provider accepted it.
    await waitUntil('the unconfirmed verdict', async () => ((await metric(gateway, /gw_credential_rejection_unconfirmed_total\{company="acme",credential="only-key"\}/)) === 1 ? true : undefined));
    expect(vendor.seen.filter((r) => r.path === '/v1/models?limit=1')).toHaveLength(1);
    expect(await metric(gateway, /gw_credential_unhealthy_total\{company="acme",credential="only-key"\}/)).toBe(0);
    expect(await ordinary()).toEqual({ status: 200, source: 'upstream', fault: null });
  });

  it('refuses duplicated authorization, x-api-key, content-length, host and x-gw-* headers with 400, forwarding nothing', async () => {
    const bad = 'gwct_' + 'A'.repeat(46);
    const cases: string[][] = [
      [`Authorization: Bearer ${token}`, `Authorization: Bearer ${bad}`],
      [`Authorization: Bearer ${bad}`, `Authorization: Bearer ${token}`],
      [`Authorization: Bearer ${token}`, 'x-api-key: sk-one', 'X-Api-Key: sk-two'],
      [`Authorization: Bearer ${token}`, 'x-gw-repo: github.com/a/b', 'x-gw-repo: github.com/c/d'],
      [`Authorization: Bearer ${token}`, 'x-gw-application: one', 'X-GW-Application: two'],
      [`Authorization: Bearer ${token}`, `Content-Length: ${Buffer.byteLength(BODY)}`],
    ];
    // Behind Envoy, Host becomes :authority in Envoy's codec before any processor is asked, and a second
    // Host is the codec's to refuse (the harness, like Node, keeps the first); gw serve sees both.
    if (plane.parsesHttp) cases.push([`Authorization: Bearer ${token}`, 'Host: other.example']);
    for (const lines of cases) {
      const before = forwarded();
      const res = await raw(lines);
      expect(forwarded(), lines.join(' | ')).toBe(before);
      if (isParserRefusal(res, plane.parsesHttp)) continue;
      expect(classify(fromRaw(res)), lines.join(' | ')).toBe('invalid_request');
      expect(res.status).toBe(400);
    }
  });

  it('answers any mix of repeated, allowed, unknown and too many headers by the documented rule, never forwarding an ambiguous head', { timeout: 180_000 }, async () => {
    const once = ['Authorization', 'x-api-key', 'x-gw-repo', 'x-gw-application', 'x-gw-end-user', 'x-gw-other'];
    const other = ['anthropic-beta', 'accept', 'user-agent', 'x-stainless-os', 'x-custom', 'cookie', 'forwarded', 'proxy-authorization', 'anthropic-organization'];
    const header = fc.record({ name: fc.constantFrom(...once, ...other), value: fc.stringMatching(/^[a-z0-9./-]{1,20}$/) });
    const head = fc.record({ extra: fc.array(header, { maxLength: 6 }), filler: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 140 })) });
    await assertWithSeeds(
      `${plane.name} hostile heads`,
      fc.asyncProperty(head, async ({ extra, filler }) => {
        const lines = [`Authorization: Bearer ${token}`, ...extra.map((h) => `${h.name}: ${h.value}`), ...Array.from({ length: filler }, (_, i) => `x-filler-${i}: v`)];
        const counts = new Map<string, number>();
        for (const line of lines) {
          const name = (line.split(':')[0] as string).toLowerCase();
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
        const duplicated = [...counts].some(([name, n]) => n > 1 && (name === 'authorization' || name === 'x-api-key' || name.startsWith('x-gw-')));
        // Host, Content-Type, Content-Length and Connection come on top of these lines.
        const fields = lines.length + 4;
        // Behind Envoy the processor counts what Envoy hands it: Host is :authority, Connection is
        // gone and x-forwarded-proto is added.
        const counted = plane.parsesHttp ? fields : fields - 1;
        const before = forwarded();
        const res = await raw(lines);
        if (!plane.parsesHttp && fields > MAX_HEADERS_COUNT) {
          // Envoy's codec answers a head over its field count itself (in our shape), before any duplicate is looked at.
          expect(res.status).toBe(431);
          expect(isParserRefusal(res, false)).toBe(true);
          expect(forwarded()).toBe(before);
          return;
        }
        const fault = classify(fromRaw(res));
        if (duplicated) {
          expect(fault).toBe('invalid_request');
          expect(forwarded()).toBe(before);
        } else if (counted > 100) {
          expect(fault).toBe('headers_too_large');
          expect(forwarded()).toBe(before);
        } else {
          expect(res.status).toBe(200);
          const seen = vendor.messageRequests().slice(before);
          expect(seen).toHaveLength(1);
          const forwardedHeaders = seen[0]?.headers ?? {};
          expect(forwardedHeaders['x-api-key']).toBe(SECRET);
          for (const { name } of extra) {
            const lower = name.toLowerCase();
            if (!isForwardedCallerHeader(lower) && lower !== 'x-api-key') expect(forwardedHeaders[lower], lower).toBeUndefined();
          }
        }
      }),
      RUNS,
    );
    expect(await metric(gateway, /gw_credential_unhealthy_total\{company="acme",credential="only-key"\}/)).toBe(0);
    expect(await ordinary()).toEqual({ status: 200, source: 'upstream', fault: null });
  });

  it('is still up, printed no crash, and the credential was never marked', async () => {
    expect(await healthy(gateway)).toBe(true);
    expect(stderr.filter((l) => CRASH_PATTERN.test(l))).toEqual([]);
    expect(await metric(gateway, /gw_credential_unhealthy_total\{company="acme",credential="only-key"\}/)).toBe(0);
    await logsCaughtUp(gateway);
    expect(gateway.output.join('\n')).not.toContain(SECRET);
  });
});

describe.each(PLANES)('a key the provider really rejects, through $name', (plane) => {
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let token: string;

  beforeAll(async () => {
    vendor = await startMockProvider({ keys: { accept: [SECRET] } });
    const config = writeGatewayConfig({ credentials: [{ name: 'only-key', provider: 'vendor', baseUrl: vendor.url, secret: SECRET }] });
    token = config.tokens.alice as string;
    gateway = await plane.launch(config.file, { env: { GW_KEY_PROBE_INITIAL_MS: '100', GW_KEY_PROBE_MAX_MS: '400' } });
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
  });

  async function call(): Promise<{ res: Response; text: string }> {
    const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: BODY });
    return { res, text: await res.text() };
  }

  it('relays the first 401, marks the key only after its own check, says the truth in no_capacity, and recovers by probing once the key works', { timeout: 60_000 }, async () => {
    vendor.options = { keys: { reject: [SECRET] } };
    const first = await call();
    expect(first.res.status).toBe(401);
    expect(classify(fromFetch(first.res, first.text))).toBeNull();
    await waitUntil('the confirmed rejection', async () => ((await metric(gateway, /gw_credential_unhealthy_total\{company="acme",credential="only-key"\}/)) === 1 ? true : undefined));

    const refused = await call();
    expect(classify(fromFetch(refused.res, refused.text))).toBe('no_capacity');
    const message = (JSON.parse(refused.text) as { error: { message: string } }).error.message;
    expect(message).toContain('"only-key"');
    expect(message).toContain('a retry does not help');
    expect(message).not.toContain('retry soon succeeds');

    // An owner fixes the key at the provider: the gateway's probe finds it and the company is served again.
    vendor.options = { keys: { accept: [SECRET] } };
    await waitUntil('the recovery', async () => ((await metric(gateway, /gw_credential_recovered_total\{company="acme",credential="only-key"\}/)) === 1 ? true : undefined));
    const served = await call();
    expect(served.res.status).toBe(200);
    expect(served.res.headers.get('x-gw-source')).toBe('upstream');
  });
});
