import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { ADMIN_TOKEN, GW_BIN, startGateway, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../support/mock-provider.js';

const run = promisify(execFile);

describe('admin listener, Usage and Logs', () => {
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    vendor = await startMockProvider();
    const config = writeGatewayConfig({
      settings: { repositoryAttribution: true, endUserRecording: true },
      tokens: ['alice', 'bob'],
      credentials: [{ name: 'k', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-admin-test-0000000000' }],
    });
    tokens = config.tokens;
    // A quiet time short enough for a test (the default is 30 s).
    gateway = await startGateway(config.file, { env: { GW_IDLE_COLLECT_AFTER_MS: '2000' } });
    const send = (token: string, model: string, headers: Record<string, string>): Promise<Response> =>
      fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ model, max_tokens: 5, stream: true, messages: [] }),
      });
    for (const [token, model, headers] of [
      [tokens.alice, 'claude-haiku-4-5', { 'x-gw-repo': 'github.com/acme/a', 'x-gw-application': 'app-1', 'x-gw-end-user': 'u1' }],
      [tokens.alice, 'claude-sonnet-4-5', { 'x-gw-repo': 'github.com/acme/a', 'x-gw-application': 'app-2' }],
      [tokens.bob, 'claude-haiku-4-5', { 'x-gw-repo': 'github.com/acme/b' }],
    ] as const) {
      const res = await send(token as string, model, headers);
      await res.text();
    }
    await waitForLogs(gateway, 3);
  });

  afterAll(async () => {
    await gateway?.stop();
    await vendor?.close();
  });

  it('serves health, readiness and Prometheus metrics without the admin token', async () => {
    expect((await fetch(`${gateway.adminUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gateway.adminUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', state: 'memory' });
    const metrics = await (await fetch(`${gateway.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/gw_requests_total\{company="acme",route="messages",status="200",fault=""\} 3/);
    expect(metrics).toMatch(/gw_tokens_total\{company="acme",provider="vendor",model="claude-haiku-4-5",kind="input"\} 2400/);
    expect(metrics).toMatch(/gw_cost_usd_total\{company="acme",provider="vendor",model="claude-sonnet-4-5"\} 0\.0/);
    expect(metrics).toContain('gw_request_duration_seconds_bucket');
    expect(metrics).toContain('gw_time_to_first_byte_seconds_bucket');
    expect(metrics).toMatch(/gw_requests_in_flight 0/);
    expect(metrics).not.toContain('sk-ant-api03-admin-test');
  });

  it('gives back the memory a burst grew once nothing has been in flight for GW_IDLE_COLLECT_AFTER_MS: one full collection, not one per quiet tick', async () => {
    const collections = async (): Promise<number> => Number(/^gw_idle_collections_total (\d+)/m.exec(await (await fetch(`${gateway.adminUrl}/metrics`)).text())?.[1] ?? NaN);
    const deadline = Date.now() + 20_000;
    while ((await collections()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await collections()).toBe(1);
    // More quiet ticks (they come every second) and another quiet time without a request: nothing ran, so nothing is collected again.
    await new Promise((r) => setTimeout(r, 3_500));
    expect(await collections()).toBe(1);
  }, 40_000);

  it('refuses the Usage and Logs API without the admin token, with a wrong one and with a caller token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-admin-token-000000', `Bearer ${tokens.alice}`]) {
      const res = await fetch(`${gateway.adminUrl}/admin/v1/logs`, authorization ? { headers: { authorization } } : {});
      expect(res.status).toBe(401);
    }
  });

  it('filters logs by address, model and since, newest first', async () => {
    const get = async (q: string): Promise<Array<Record<string, unknown>>> =>
      ((await (await fetch(`${gateway.adminUrl}/admin/v1/logs?${q}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { data: Array<Record<string, unknown>> }).data;
    const all = await get('');
    expect(all).toHaveLength(3);
    expect(all.map((r) => r.time)).toEqual([...all.map((r) => r.time as string)].sort().reverse());
    expect((await get('address=alice@acme.example')).map((r) => r.model).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    expect(await get('model=claude-sonnet-4-5')).toHaveLength(1);
    expect(await get(`since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    expect((await fetch(`${gateway.adminUrl}/admin/v1/logs?since=yesterday-ish`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(400);
  });

  it('prints usage and logs with gw usage and gw logs, as tables and JSON', async () => {
    const env = { ...process.env, GW_ADMIN_TOKEN: ADMIN_TOKEN };
    const byRepo = await run(process.execPath, [GW_BIN, 'usage', '--by', 'repo', '--json', '--admin-url', gateway.adminUrl], { env });
    const rows = JSON.parse(byRepo.stdout) as Array<{ key: string; requests: number }>;
    expect(rows.map((r) => [r.key, r.requests]).sort()).toEqual([
      ['github.com/acme/a', 2],
      ['github.com/acme/b', 1],
    ]);
    const byApp = JSON.parse((await run(process.execPath, [GW_BIN, 'usage', '--by', 'application', '--json', '--admin-url', gateway.adminUrl], { env })).stdout) as Array<{ key: string | null }>;
    expect(byApp.map((r) => r.key).sort()).toEqual(['app-1', 'app-2', null].sort());
    const byUser = JSON.parse((await run(process.execPath, [GW_BIN, 'usage', '--by', 'end_user', '--json', '--admin-url', gateway.adminUrl], { env })).stdout) as Array<{
      key: string | null;
      requests: number;
    }>;
    expect(byUser.find((r) => r.key === 'u1')?.requests).toBe(1);
    const table = await run(process.execPath, [GW_BIN, 'logs', '--address', 'bob@acme.example', '--admin-url', gateway.adminUrl], { env });
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+REQUEST_ID\s+ADDRESS\s+MODEL/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('bob@acme.example');
    const refused = await run(process.execPath, [GW_BIN, 'logs', '--admin-url', gateway.adminUrl], { env: { ...process.env, GW_ADMIN_TOKEN: 'not-the-admin-token-000' } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toMatch(/^gw: the admin token is not valid/);
  });
});
