import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken, TOKEN_PREFIX } from '../../../src/auth/token.js';
import { writeGatewayConfig } from '../../support/gateway-config.js';
import { logsCaughtUp, type GatewayProcess } from '../../support/gateway-process.js';
import { DEFAULT_DELTAS, startMockProvider, streamEvents, type MockProvider, type MockUsage, type SeenRequest } from '../../support/mock-provider.js';
import { classify, collectStderr, CRASH_PATTERN, fromFetch, fromRaw, healthy, isParserRefusal, rawExchange, recordOf, type RawResponse } from '../../support/resilience.js';
import { startScriptedProvider, writeAll, type ScriptedProvider } from '../../support/scripted-provider.js';
import { PLANES } from './planes.js';

/**
 * Property-based hostile input (fast-check): every run is a real HTTP request
 * through the data plane. Shared properties, checked on every run and once
 * more at the end: the process stays up (/healthz) and prints no crash or
 * unhandled rejection; every answer is a relayed provider answer or a
 * well-formed gateway error (docs/errors.md), or, for bytes no HTTP parser
 * takes, the parser's own 400/431; nothing reaches a provider without
 * authentication; no caller token or provider secret is ever logged.
 */

const VENDOR_SECRET = 'sk-ant-api03-hostile-vendor-secret-GGGGGGGGGGGGGGGGG';
const LOCAL_SECRET = 'local-runtime-hostile-secret-HHHHHHHHHHHHHHHH';
const CHUNKY_SECRET = 'sk-chunky-hostile-secret-IIIIIIIIIIIIIIIIIIIIII';
const OFF_SECRET = 'sk-ant-api03-hostile-off-secret-JJJJJJJJJJJJJJJJJJJ';
const RUNS = 60;

const VALID = { model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] };

/** A second company, in the same file, with repository attribution off. */
function offCompany(baseUrl: string): { docs: unknown[]; token: string } {
  const token = generateToken();
  const ns = 'initech';
  return {
    token,
    docs: [
      { apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name: 'settings', namespace: ns }, spec: { tokenDomain: 'initech.example' } },
      { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'peter', namespace: ns }, spec: { displayName: 'peter', tokenHash: hashToken(token) } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'off-secret', namespace: ns, labels: { 'gw.io/secret': 'true' } }, stringData: { key: OFF_SECRET } },
      {
        apiVersion: 'gw.io/v1alpha1',
        kind: 'ProviderCredential',
        metadata: { name: 'off-key', namespace: ns },
        spec: { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'off-secret', key: 'key' }, baseUrl, maxConcurrency: 50 },
      },
    ],
  };
}

/** The chunking property's stream for this request: set per run, written in the chosen pieces. */
interface ChunkPlan {
  wire: Buffer;
  cuts: number[];
}

describe.each(PLANES)('hostile input through $name', (plane) => {
  let vendor: MockProvider;
  let local: MockProvider;
  let chunky: ScriptedProvider;
  let gateway: GatewayProcess;
  let token: string;
  let offToken: string;
  let stderr: string[];
  let plan: ChunkPlan = { wire: Buffer.alloc(0), cuts: [] };
  /** Every bearer value a property sent, valid or not: none may show up in the output. */
  const sentTokens = new Set<string>();

  beforeAll(async () => {
    vendor = await startMockProvider();
    local = await startMockProvider({ serveModels: false });
    chunky = await startScriptedProvider(async (_req, res) => {
      const { wire, cuts } = plan;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      let from = 0;
      for (const cut of [...cuts, wire.length]) {
        if (cut <= from) continue;
        if (!(await writeAll(res, wire.subarray(from, cut)))) return;
        from = cut;
        // Each piece its own write on the wire (no Nagle; a turn of the loop between).
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
    const off = offCompany(vendor.url);
    const config = writeGatewayConfig({
      settings: { repositoryAttribution: true, endUserRecording: true, secretScanning: true, callerConcurrency: { default: 50, queueWaitSeconds: 1 } },
      credentials: [
        { name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: VENDOR_SECRET, maxConcurrency: 50 },
        { name: 'local', provider: 'provider_d', baseUrl: local.url, secret: LOCAL_SECRET, maxConcurrency: 50 },
        { name: 'chunky', provider: 'provider_c', baseUrl: chunky.url, secret: CHUNKY_SECRET, maxConcurrency: 50 },
      ],
      extraDocs: off.docs,
    });
    token = config.tokens.alice as string;
    offToken = off.token;
    sentTokens.add(token).add(offToken);
    gateway = await plane.launch(config.file);
    stderr = collectStderr(gateway);
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
    await local?.close();
    await chunky?.close();
  });

  /** Requests forwarded to a provider (the gateway's own model-list fetches are not forwards). */
  const forwarded = (): number => vendor.messageRequests().length + local.messageRequests().length + chunky.messageRequests().length;

  async function post(body: Buffer | string, headers: Record<string, string> = {}): Promise<{ res: Response; text: string }> {
    const res = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return { res, text: await res.text() };
  }

  /** One raw HTTP/1.1 request; header lines are given as bytes. */
  function raw(headerLines: Buffer[], body: Buffer | string = JSON.stringify(VALID)): Promise<RawResponse> {
    const payload = typeof body === 'string' ? Buffer.from(body) : body;
    const { host } = new URL(gateway.url);
    const head = [
      Buffer.from(`POST /v1/messages HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}\r\n`),
      ...headerLines.map((l) => Buffer.concat([l, Buffer.from('\r\n')])),
      Buffer.from('Connection: close\r\n\r\n'),
    ];
    return rawExchange(gateway.url, Buffer.concat([...head, payload]));
  }

  const auth = (t: string): Buffer => Buffer.from(`Authorization: Bearer ${t}`, 'latin1');

  it('answers random and mutated JSON bodies with a relayed answer or a well-formed gateway error, forwarding nothing it refused', { timeout: 120_000 }, async () => {
    const validText = JSON.stringify(VALID);
    const fields = ['model', 'max_tokens', 'messages', 'stream'] as const;
    const mutated = fc.oneof(
      // Arbitrary JSON, of any type, as the whole body.
      fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
      // A field dropped.
      fc.constantFrom(...fields).map((f) => Buffer.from(JSON.stringify({ ...VALID, stream: false, [f]: undefined }))),
      // A field retyped.
      fc.tuple(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 })).map(([f, v]) => Buffer.from(JSON.stringify({ ...VALID, [f]: v }))),
      // A field duplicated in the raw text (the last one wins for JSON.parse).
      fc.tuple(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 1 })).map(([f, v]) => Buffer.from(`{"${f}":${JSON.stringify(v)},${validText.slice(1)}`)),
      // Truncated at any byte.
      fc.nat({ max: validText.length - 1 }).map((n) => Buffer.from(validText).subarray(0, n)),
      // Bytes that are not UTF-8, inside a string or outside.
      fc
        .tuple(
          fc.nat({ max: validText.length }),
          fc.uint8Array({ minLength: 1, maxLength: 8 }).map((a) => a.map((b) => 0x80 | b)),
        )
        .map(([at, bytes]) => {
          const b = Buffer.from(validText);
          return Buffer.concat([b.subarray(0, at), Buffer.from(bytes), b.subarray(at)]);
        }),
      // Deep nesting inside a field the gateway does not read.
      fc.tuple(fc.integer({ min: 1000, max: 100_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
        const close = open === '[' ? ']' : '}';
        return Buffer.from(`{"model":"claude-haiku-4-5","max_tokens":16,"messages":[{"role":"user","content":"x"}],"deep":${open.repeat(depth)}1${close.repeat(depth)}}`);
      }),
      // Deep nesting where the gateway must look (messages).
      fc
        .integer({ min: 1000, max: 50_000 })
        .map((depth) => Buffer.from(`{"model":"claude-haiku-4-5","max_tokens":16,"messages":${'['.repeat(depth)}"sk-ant-api03-${'a'.repeat(40)}"${']'.repeat(depth)}}`)),
    );
    await fc.assert(
      fc.asyncProperty(mutated, async (body) => {
        const before = forwarded();
        const { res, text } = await post(body);
        const fault = classify(fromFetch(res, text));
        if (fault !== null) {
          expect(forwarded()).toBe(before);
          expect(['invalid_request', 'model_not_allowed']).toContain(fault);
        }
      }),
      { numRuns: RUNS * 2 },
    );
    expect(await healthy(gateway)).toBe(true);
  });

  it('relays an SSE stream cut into any pieces byte for byte, and records exactly the usage the provider reported', { timeout: 120_000 }, async () => {
    const usage = fc.record({
      input_tokens: fc.nat({ max: 2_000_000 }),
      output_tokens: fc.nat({ max: 200_000 }),
      cache_creation_input_tokens: fc.nat({ max: 100_000 }),
      cache_read_input_tokens: fc.nat({ max: 100_000 }),
    });
    const stream = fc.record({
      usage,
      deltas: fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 6 }),
      crlf: fc.boolean(),
      cutFractions: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(stream, async ({ usage: u, deltas, crlf, cutFractions }) => {
        const text = streamEvents('chunky-1', deltas, u as MockUsage, {}).join('');
        const wire = Buffer.from(crlf ? text.replace(/\n/g, '\r\n') : text);
        const cuts = [...new Set(cutFractions.map((f) => Math.floor(f * wire.length)))].sort((a, b) => a - b);
        plan = { wire, cuts };
        const { res, text: got } = await post(JSON.stringify({ model: 'provider_c:chunky-1', max_tokens: 16, stream: true, messages: [] }));
        expect(res.status).toBe(200);
        expect(res.headers.get('x-gw-source')).toBe('upstream');
        expect(Buffer.from(got).equals(wire)).toBe(true);
        const record = await recordOf(gateway, res.headers.get('x-gw-request-id') as string);
        expect({
          input_tokens: record.input_tokens,
          output_tokens: record.output_tokens,
          cache_creation_input_tokens: record.cache_creation_input_tokens,
          cache_read_input_tokens: record.cache_read_input_tokens,
          outcome: record.outcome,
        }).toEqual({ ...u, outcome: 'complete' });
      }),
      { numRuns: RUNS },
    );
  });

  it('survives random header names and values (CR/LF, NUL, non-ASCII, 64 KiB) sent over a raw socket', { timeout: 120_000 }, async () => {
    const bytes = (s: string, encoding: BufferEncoding): Buffer => Buffer.from(s, encoding);
    const name = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40}$/).map((s) => bytes(s, 'latin1')),
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 20 }).map((s) => bytes(s, 'latin1')),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map((s) => bytes(s, 'utf8')),
      fc
        .constantFrom('x-gw-repo', 'x-gw-application', 'x-gw-end-user', 'x-gw-upstream', 'x-gw-secret-sauce', 'Authorization', 'x-api-key', 'cookie', 'content-length', 'transfer-encoding', 'host')
        .map((s) => bytes(s, 'latin1')),
    );
    const value = fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => bytes(s, 'latin1')),
      fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => bytes(s, 'utf8')),
      fc.string({ unit: 'binary', maxLength: 20 }).map((s) => bytes(s, 'utf8')),
      fc.constantFrom('a\r\nx-injected: yes', 'a\nx-injected: yes', 'a\rb', 'a\u0000b', '\u00ff\u00fe', ' ').map((s) => bytes(s, 'latin1')),
      fc.constant(Buffer.alloc(64 * 1024, 'v')),
    );
    await fc.assert(
      fc.asyncProperty(name, value, fc.boolean(), async (n, v, authenticated) => {
        const before = forwarded();
        const res = await raw([...(authenticated ? [auth(token)] : []), Buffer.concat([n, Buffer.from(': '), v])]);
        expect(res.status).toBeGreaterThan(0);
        if (!isParserRefusal(res, plane.parsesHttp)) classify(fromRaw(res));
        if (!authenticated || res.headers['x-gw-source'] !== 'upstream') expect(forwarded()).toBe(before);
      }),
      { numRuns: RUNS * 2 },
    );
    expect(await healthy(gateway)).toBe(true);
  });

  it('[S4.2-b] [S8-a] records an x-gw-repo of multibyte UTF-8 around the 200-byte limit iff it is valid and attribution is on, and never forwards it', { timeout: 120_000 }, async () => {
    const multibyte = fc.constantFrom('é', 'ß', '€', '日', '本', '𝔸', '🙂', 'a', 'z', '-', '_', '.');
    const repoCase = fc.record({
      host: fc.constantFrom('github.com', 'gitlab.example.org', 'git.example.co.uk'),
      owner: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
      chars: fc.array(multibyte, { minLength: 1, maxLength: 200 }),
      target: fc.integer({ min: 185, max: 215 }),
      defect: fc.constantFrom('', '', '', '.git', 'scheme', 'credentials', 'leading-slash', 'space'),
      attribution: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(repoCase, async ({ host, owner, chars, target, defect, attribution }) => {
        let slug = `${host}/${owner}/`;
        for (let i = 0; Buffer.byteLength(slug) < target; i++) slug += chars[i % chars.length];
        if (slug.endsWith('.') || slug.endsWith('/')) slug += 'r';
        if (defect === '.git') slug += '.git';
        if (defect === 'scheme') slug = `https://${slug}`;
        if (defect === 'credentials') slug = `user:pw@${slug}`;
        if (defect === 'leading-slash') slug = `/${slug}`;
        if (defect === 'space') slug = slug.replace('/', '/ ');
        const valid = defect === '' && Buffer.byteLength(slug, 'utf8') <= 200 && !slug.toLowerCase().endsWith('.git') && !/\/\.{1,2}(\/|$)/.test(slug);
        const before = vendor.messageRequests().length;
        // The header's bytes are UTF-8 on the wire, as curl and the SDKs send them.
        const res = await raw([auth(attribution ? token : offToken), Buffer.concat([Buffer.from('x-gw-repo: '), Buffer.from(slug, 'utf8')])]);
        expect(res.status).toBe(200);
        expect(res.headers['x-gw-source']).toBe('upstream');
        expect(res.headers['x-gw-warning'] !== undefined).toBe(!valid);
        const seen = vendor.messageRequests().slice(before);
        expect(seen).toHaveLength(1);
        expect((seen[0] as SeenRequest).headers['x-gw-repo']).toBeUndefined();
        const record = await recordOf(gateway, res.headers['x-gw-request-id'] as string);
        if (valid && attribution) expect(record.repo).toBe(slug);
        else expect(record).not.toHaveProperty('repo');
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('never lets a model id with colons, unicode or path characters change where a request goes', { timeout: 120_000 }, async () => {
    const piece = fc.oneof(
      fc.constantFrom(':', '::', '/', '../', '..', '%2e%2e%2f', '?x=1', '#frag', '\\', '%00', '\u0000', ' ', '\t', '\r\n', 'é', '日本', '🙂', '\u202e', 'claude-haiku-4-5', 'v1/messages'),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    const model = fc
      .tuple(fc.constantFrom('', 'provider_a:', 'provider_b:', 'provider_c:', 'provider_d:', 'PROVIDER_D:', 'provider_e:', 'vendor:', ':'), fc.array(piece, { minLength: 1, maxLength: 6 }))
      .map(([prefix, parts]) => prefix + parts.join(''));
    await fc.assert(
      fc.asyncProperty(model, async (id) => {
        const before = { vendor: vendor.messageRequests().length, local: local.messageRequests().length, chunky: chunky.messageRequests().length };
        const { res, text } = await post(JSON.stringify({ ...VALID, model: id }));
        const fault = classify(fromFetch(res, text));
        if (fault !== null) {
          expect(['invalid_request', 'model_not_allowed']).toContain(fault);
          return;
        }
        // Relayed: it went to exactly /v1/messages of the chosen provider, model passed on as given.
        const sent = [...vendor.messageRequests().slice(before.vendor), ...local.messageRequests().slice(before.local), ...chunky.messageRequests().slice(before.chunky)];
        expect(sent).toHaveLength(1);
        const request = sent[0] as SeenRequest;
        expect(request.path).toBe('/v1/messages');
        const forwardedModel = (JSON.parse(request.body.toString('utf8')) as { model: string }).model;
        if (/^provider_d:/i.test(id)) expect(forwardedModel).toBe(id.slice(id.indexOf(':') + 1));
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('[S2.1-a] [S4.1-r1] refuses tokens with wrong checksums or shapes with 401 no_session and forwards nothing', { timeout: 120_000 }, async () => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const mutatedToken = fc.oneof(
      // One character of a live token changed (body or checksum): the checksum no longer matches.
      fc.tuple(fc.integer({ min: TOKEN_PREFIX.length, max: 50 }), fc.constantFrom(...alphabet)).map(([at, c]) => {
        const t = token;
        const replaced = t.slice(0, at) + c + t.slice(at + 1);
        return replaced === t ? t.slice(0, at) + (c === 'a' ? 'b' : 'a') + t.slice(at + 1) : replaced;
      }),
      // Any 46 base62 characters after the prefix: right shape, checksum almost surely wrong.
      fc.stringMatching(/^[0-9A-Za-z]{46}$/).map((s) => TOKEN_PREFIX + s),
      // Well-formed, with a valid checksum, but no company has it.
      fc.constant(null).map(() => generateToken()),
      // Off by length, prefix, case or with stray bytes.
      fc.constantFrom('gwct_', 'GWCT_' + token.slice(5), token + 'a', token.slice(0, -1), ` ${token}x`, token.replace('gwct_', 'gwct-')),
      fc.string({ unit: 'binary', maxLength: 60 }).map((s) => TOKEN_PREFIX + s),
    );
    await fc.assert(
      fc.asyncProperty(mutatedToken, async (t) => {
        fc.pre(t !== token);
        sentTokens.add(t);
        const before = forwarded();
        const res = await raw([Buffer.concat([Buffer.from('Authorization: Bearer '), Buffer.from(t, 'utf8')])]);
        expect(forwarded()).toBe(before);
        if (isParserRefusal(res, plane.parsesHttp)) return;
        expect(classify(fromRaw(res))).toBe('no_session');
        expect(res.status).toBe(401);
      }),
      { numRuns: RUNS * 2 },
    );
    // The live token still works after all that.
    const { res, text } = await post(JSON.stringify(VALID));
    expect(res.status).toBe(200);
    expect(JSON.parse(text).content[0].text).toBe(DEFAULT_DELTAS.join(''));
  });

  it('is still up after every property, printed no crash, logged no token or secret, and forwarded no x-gw-* header', async () => {
    expect(await healthy(gateway)).toBe(true);
    expect(stderr.filter((l) => CRASH_PATTERN.test(l))).toEqual([]);
    await logsCaughtUp(gateway);
    const output = gateway.output.join('\n');
    for (const t of sentTokens) if (t.length >= 20) expect(output).not.toContain(t);
    for (const s of [VENDOR_SECRET, LOCAL_SECRET, CHUNKY_SECRET, OFF_SECRET]) expect(output).not.toContain(s);
    // Whatever the caller sent, no x-gw-* header, no header value with CR, LF or NUL and no caller token ever reached a provider.
    for (const seen of [...vendor.seen, ...local.seen, ...chunky.seen]) {
      expect(Object.keys(seen.headers).filter((h) => h.startsWith('x-gw-'))).toEqual([]);
      expect(Object.entries(seen.headers).filter(([, v]) => /[\r\n\0]/.test(String(v)))).toEqual([]);
      const all = JSON.stringify(seen.headers) + seen.body.toString('latin1');
      for (const t of sentTokens) if (t.length >= 20) expect(all).not.toContain(t);
    }
  });
});
