import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/token.js';
import { keys } from '../../src/state/redis/keys.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { ADMIN_TOKEN, GW_BIN, startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { startPostgres, type TestPostgres } from '../support/postgres-server.js';
import { startRedis, type TestRedis } from '../support/redis-server.js';

const run = promisify(execFile);

/**
 * `gw serve --postgres`: every request's record reaches PostgreSQL through
 * the exporter (from memory on one machine, from Redis with --redis), and
 * the admin API, `gw usage`/`gw logs` through it and `gw usage`/`gw logs
 * --postgres` straight from the database print the same numbers.
 */
describe.each(['memory', 'redis'] as const)('Usage and Logs in PostgreSQL (%s state)', (mode) => {
  let postgres: TestPostgres;
  let redis: TestRedis | undefined;
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let acmeToken: string;
  let config: ReturnType<typeof writeGatewayConfig>;
  /** Records sent after the first REQUESTS. */
  let extra = 0;
  const REQUESTS = 12;

  beforeAll(async () => {
    // No model list (a local runtime's way): an id the catalogue does not know goes through as the caller wrote it.
    [postgres, vendor] = await Promise.all([startPostgres(), startMockProvider({ serveModels: false })]);
    if (mode === 'redis') redis = await startRedis();
    config = writeGatewayConfig({
      settings: { repositoryAttribution: true, endUserRecording: true, spendLimits: { timeZone: 'Pacific/Auckland' }, models: { provider_a: { enabled: ['*'] } } },
      tokens: ['alice', 'bob', 'carol'],
      credentials: [
        { name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-usage-pg-test-000000' },
        { name: 'a', provider: 'provider_a', baseUrl: vendor.url, secret: 'sk-ant-api03-usage-pg-test-000001' },
      ],
    });
    // An admin token that reads only acme, and one scoped elsewhere.
    acmeToken = `acme-reader-${randomBytes(8).toString('hex')}`;
    const scoped = join(config.dir, 'admin-tokens.yaml');
    writeFileSync(scoped, `- name: acme-finance\n  sha256: "sha256:${hashToken(acmeToken).replace(/^sha256:/, '')}"\n  companies: [acme]\n`);
    const env: Record<string, string> = { GW_POSTGRES_URL: postgres.urlWithoutPassword, PGPASSWORD: postgres.password };
    const args = ['--admin-tokens-file', scoped];
    if (redis) {
      args.push('--redis', redis.url);
      env.GW_ENCRYPTION_KEY = randomBytes(32).toString('base64');
    }
    gateway = await startGateway(config.file, { args, env });
    const names = ['alice', 'bob', 'carol'];
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.tokens[names[i % 3] as string]}`,
          'content-type': 'application/json',
          'x-gw-repo': `github.com/acme/r${i % 2}`,
          ...(i % 4 === 0 ? { 'x-gw-end-user': `cust-${i}` } : {}),
        },
        body: JSON.stringify({ model: i % 2 === 0 ? 'claude-haiku-4-5' : 'claude-sonnet-4-5', max_tokens: 5, stream: i % 3 !== 0, messages: [] }),
      });
      expect(res.status).toBe(200);
      await res.text();
    }
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
    await redis?.destroy();
    await postgres?.destroy();
  });

  async function api(path: string, token = ADMIN_TOKEN): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
    const res = await fetch(`${gateway.adminUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async function cli(args: string[], direct: boolean): Promise<string> {
    const env = direct ? { ...process.env, PGPASSWORD: postgres.password, GW_ADMIN_TOKEN: '' } : { ...process.env, GW_ADMIN_TOKEN: ADMIN_TOKEN, GW_POSTGRES_URL: '' };
    const extra = direct ? ['--postgres', postgres.urlWithoutPassword] : ['--admin-url', gateway.adminUrl];
    const { stdout } = await run(process.execPath, [GW_BIN, ...args, ...extra], { env: env as NodeJS.ProcessEnv });
    return stdout;
  }

  it('every request reaches PostgreSQL once, and leaves the buffer once exported', async () => {
    const deadline = Date.now() + 60_000;
    let data: unknown[] = [];
    while (Date.now() < deadline) {
      // Until the exporter (a thread that starts on its own time) has created the schema, reading fails.
      const answer = await api('/admin/v1/logs?limit=1000');
      data = answer.status === 200 ? (answer.body.data as unknown[]) : [];
      if (data.length >= REQUESTS) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(data).toHaveLength(REQUESTS);
    const direct = JSON.parse(await cli(['logs', '--json', '--limit', '1000'], true)) as Array<{ request_id: string }>;
    expect(new Set(direct.map((r) => r.request_id)).size).toBe(REQUESTS);
    const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/gw_usage_stored_total \d+/);
    expect(Number(/gw_usage_stored_total (\d+)/.exec(metrics)?.[1])).toBe(REQUESTS);
    expect(metrics).toMatch(/gw_usage_exporter_active 1/);
    const deadlineBacklog = Date.now() + 10_000;
    let backlog = '';
    while (Date.now() < deadlineBacklog) {
      backlog = /gw_usage_export_backlog (\d+)/.exec(await (await fetch(`${gateway.adminUrl}/metrics`)).text())?.[1] ?? '';
      if (backlog === '0') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(backlog).toBe('0');
  });

  it('the API and the CLI (through the API, and straight from the database) print the same numbers, and they add up to the records', async () => {
    const records = JSON.parse(await cli(['logs', '--json', '--limit', '1000'], true)) as Array<{ address: string; input_tokens: number; cost_usd: number }>;
    for (const [by, period] of [
      ['address', ''],
      ['model', 'day'],
      ['provider', 'month'],
      ['repo', 'week'],
      ['end_user', ''],
    ] as const) {
      const flags = ['usage', '--by', by, ...(period ? ['--period', period] : []), '--json'];
      const viaApi = JSON.parse(await cli(flags, false)) as Array<{ key: string | null; requests: number; input_tokens: number; cost_usd: number }>;
      const direct = JSON.parse(await cli(flags, true)) as unknown;
      const raw = (await api(`/admin/v1/usage?group_by=${by}${period ? `&period=${period}` : ''}`)).body.data;
      expect(direct).toEqual(viaApi);
      expect(raw).toEqual(viaApi);
      expect(viaApi.reduce((n, r) => n + r.requests, 0)).toBe(REQUESTS);
      expect(viaApi.reduce((n, r) => n + r.input_tokens, 0)).toBe(records.reduce((n, r) => n + r.input_tokens, 0));
    }
    const byAddress = JSON.parse(await cli(['usage', '--by', 'address', '--json'], true)) as Array<{ key: string; requests: number }>;
    expect(byAddress.map((r) => [r.key, r.requests]).sort()).toEqual([
      ['alice@acme.example', 4],
      ['bob@acme.example', 4],
      ['carol@acme.example', 4],
    ]);
    // Periods are the company's calendar days (Pacific/Auckland), not UTC's.
    const byDay = JSON.parse(await cli(['usage', '--by', 'model', '--period', 'day', '--json'], true)) as Array<{ period: string }>;
    const aucklandToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());
    expect(byDay.every((r) => r.period === aucklandToday || r.period < aucklandToday)).toBe(true);
    // The most expensive requests, and CSV the same both ways.
    const top = JSON.parse(await cli(['logs', '--order', 'cost', '--limit', '3', '--json'], true)) as Array<{ cost_usd: number }>;
    expect(top).toHaveLength(3);
    expect(top[0]!.cost_usd).toBeGreaterThanOrEqual(top[2]!.cost_usd);
    expect(await cli(['usage', '--by', 'repo', '--csv'], true)).toBe(await cli(['usage', '--by', 'repo', '--csv'], false));
    expect(await cli(['logs', '--order', 'cost', '--csv'], true)).toBe(await cli(['logs', '--order', 'cost', '--csv'], false));
    expect((await cli(['logs', '--csv'], true)).split('\r\n')[0]).toMatch(/^time,request_id,company,address,/);
    // A model however it is spelled (spec §2.4), the same both ways.
    const haiku = JSON.parse(await cli(['logs', '--model', 'Claude-Haiku-4.5', '--json'], true)) as unknown[];
    expect(haiku).toHaveLength(REQUESTS / 2);
    expect(JSON.parse(await cli(['logs', '--model', 'Claude-Haiku-4.5', '--json'], false))).toEqual(haiku);
    // Tables too.
    expect(await cli(['usage', '--by', 'model'], true)).toBe(await cli(['usage', '--by', 'model'], false));
  }, 180_000);

  it('an admin token scoped to a company reads that company and gets 403 for another or for all', async () => {
    expect((await api('/admin/v1/usage?company=acme', acmeToken)).status).toBe(200);
    expect(((await api('/admin/v1/logs?company=acme', acmeToken)).body.data as unknown[]).length).toBe(REQUESTS);
    const other = await api('/admin/v1/logs?company=globex', acmeToken);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect((await api('/admin/v1/usage', acmeToken)).status).toBe(403);
    expect((await api('/admin/v1/usage?company=acme', 'not-a-known-token-000000')).status).toBe(401);
  });

  it('caller-written text PostgreSQL cannot hold as written (U+0000, a lone surrogate) in the model: the record lands with U+FFFD in its place, and reports filtered by model still work', async () => {
    // Unknown bare ids pass through as written (model); a pinned id spelled otherwise than its canonical form is kept as requested_model.
    const models = ['claude-haiku-4-5\u0000', 'Claude-Haiku-4.5\ud800', 'PROVIDER_A:claude-haiku-4-5\u0000', 'Provider_A:claude-\udc00haiku'];
    const statuses: number[] = [];
    for (const model of models) {
      const res = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.tokens.alice}`, 'content-type': 'application/json', 'x-gw-repo': 'github.com/acme/odd' },
        // JSON.stringify writes the NUL and the lone surrogates as \u escapes: a well-formed body.
        body: JSON.stringify({ model, max_tokens: 5, messages: [] }),
      });
      statuses.push(res.status);
      await res.text();
    }
    extra += models.length;
    const deadline = Date.now() + 60_000;
    let data: Array<{ model: string | null; requested_model?: string; status: number }> = [];
    while (Date.now() < deadline) {
      const answer = await api('/admin/v1/logs?limit=1000');
      expect(answer.status).toBe(200);
      data = answer.body.data as typeof data;
      if (data.length >= REQUESTS + extra) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(data).toHaveLength(REQUESTS + extra);
    const odd = data.filter((r) => [r.model, r.requested_model].some((m) => m !== null && m !== undefined && !/^[\x20-\x7e]*$/.test(m)));
    expect(odd.map((r) => r.status).sort()).toEqual([...statuses].sort());
    for (const r of odd) for (const m of [r.model, r.requested_model]) if (typeof m === 'string') expect(m).not.toMatch(/\u0000|[\ud800-\udfff]/);
    expect(odd.flatMap((r) => [r.model, r.requested_model]).join('')).toContain('\ufffd');
    // The model filter reads record->>'requested_model' for every row: it must not meet an escape it cannot give back.
    const filtered = await api('/admin/v1/logs?model=Claude-Haiku-4.5&limit=1000');
    expect(filtered.status).toBe(200);
    expect((filtered.body.data as unknown[]).length).toBeGreaterThanOrEqual(REQUESTS / 2);
    expect(JSON.parse(await cli(['logs', '--model', 'Claude-Haiku-4.5', '--json', '--limit', '1000'], true))).toEqual(filtered.body.data);
    expect(await cli(['usage', '--by', 'model'], true)).toBe(await cli(['usage', '--by', 'model'], false));
    const byModel = JSON.parse(await cli(['usage', '--by', 'model', '--json'], true)) as Array<{ requests: number }>;
    expect(byModel.reduce((n, r) => n + r.requests, 0)).toBe(REQUESTS + extra);
  }, 120_000);

  it('SIGTERM: the exporter (a thread of its own with --redis) lets go of the lease and the process exits 0', async () => {
    expect(await gateway.stop('SIGTERM')).toBe(0);
    if (redis) {
      const client = new Redis(redis.url);
      expect(await client.get(keys.exporterLease())).toBeNull();
      client.disconnect();
    }
    const direct = JSON.parse(await cli(['logs', '--json', '--limit', '1000'], true)) as unknown[];
    expect(direct).toHaveLength(REQUESTS + extra);
  });
});
