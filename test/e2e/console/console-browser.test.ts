import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenSeenOnce, launchChromium, openPage, refuseBadZoneThenLimitTokensToZero, reloadUntil, switchModelOn } from '../../support/console-browser.js';
import { writeGatewayConfig, type TestConfig } from '../../support/gateway-config.js';
import { ADMIN_TOKEN, ROOT, startGateway, waitForLogs, type GatewayProcess } from '../../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';
import { startPostgres, type TestPostgres } from '../../support/postgres-server.js';
import { startRedis, type TestRedis } from '../../support/redis-server.js';

/**
 * The owner console in a real browser: Debian's Chromium driven by
 * playwright-core, against a real gw serve (memory state, and Redis with
 * PostgreSQL), the gateway called with the real SDK. Controls are found by
 * role and accessible name, as the issue names them.
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Set to a folder (docs/console) to write a screenshot of each page there. */
const SHOTS = process.env.GW_CONSOLE_SCREENSHOTS ?? null;
const PROMPT = `prompt-content-${randomBytes(6).toString('hex')}`;

const HOSTILE = {
  application: '"><img src=x onerror="window.__pwned=1">',
  endUser: '<script>window.__pwned=2</script>',
  model: 'provider_a:<script>window.__pwned=3</script>',
  rtl: 'provider_a:javascript:alert(1)//\u202Egnp.exe',
};

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not as a page script, so the strict CSP stays on while it runs.
  await page.evaluate(AXE);
  // A string, evaluated in the page: the test program itself has no DOM types.
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as { violations: { id: string; impact: string | null; nodes: unknown[] }[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes.length} node(s))`);
}

async function checkAccessibility(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `${name} in ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (SHOTS) {
    mkdirSync(join(ROOT, SHOTS), { recursive: true });
    await page.screenshot({ path: join(ROOT, SHOTS, `${name}.png`), fullPage: true });
    // The same page as a system set to dark shows it (prefers-color-scheme: dark).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(ROOT, SHOTS, `${name}-dark.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

describe.each(['memory', 'redis+postgres'] as const)('owner console in Chromium (%s)', (mode) => {
  let vendor: MockProvider;
  let redis: TestRedis | undefined;
  let postgres: TestPostgres | undefined;
  let gateway: GatewayProcess;
  let config: TestConfig;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    // No model list: ids the catalogue does not know (a hostile one included) go through as written.
    vendor = await startMockProvider({ serveModels: false });
    config = writeGatewayConfig({
      settings: { repositoryAttribution: true, endUserRecording: true },
      tokens: ['alice'],
      credentials: [
        { name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-browser-test-0000000000' },
        { name: 'router-key', provider: 'provider_a', baseUrl: vendor.url, secret: 'sk-or-browser-test-0000000000' },
      ],
    });
    const args: string[] = [];
    const env: Record<string, string> = {};
    if (mode === 'redis+postgres') {
      [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
      args.push('--redis', redis.url);
      env.GW_ENCRYPTION_KEY = randomBytes(32).toString('base64');
      env.GW_POSTGRES_URL = postgres.urlWithoutPassword;
      env.PGPASSWORD = postgres.password;
    }
    gateway = await startGateway(config.file, { args, env });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(`${gateway.adminUrl}/console/`)) external.push(r.url());
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await redis?.stop();
    await postgres?.destroy();
    await vendor?.close();
  });

  it('renders hostile model ids, applications, end users and right-to-left text as text: no script runs, no dialog, nothing fetched elsewhere', async () => {
    await page.goto(`${gateway.adminUrl}/console/`);
    await page.getByLabel('Token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const settingsOn = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.tokens.alice}`, 'content-type': 'application/json', 'x-gw-application': HOSTILE.application, 'x-gw-end-user': HOSTILE.endUser },
      body: JSON.stringify({ model: HOSTILE.model, max_tokens: 4, messages: [{ role: 'user', content: 'x' }] }),
    });
    await settingsOn.text();
    const rtl = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.tokens.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: HOSTILE.rtl, max_tokens: 4, messages: [{ role: 'user', content: 'x' }] }),
    });
    await rtl.text();
    if (mode === 'memory') await waitForLogs(gateway, 2, '&address=alice%40acme.example');
    for (const [group, text] of [
      ['application', HOSTILE.application],
      ['end_user', HOSTILE.endUser],
    ] as const) {
      await page.goto(`${gateway.adminUrl}/console/?page=usage&company=acme&group_by=${group}`);
      await reloadUntil(page, text);
    }
    await page.goto(`${gateway.adminUrl}/console/?page=logs&company=acme&address=alice%40acme.example`);
    await reloadUntil(page, 'alice@acme.example');
    const details: string[] = [];
    for (const button of await page.getByRole('button', { name: /^Open request / }).all()) {
      await button.click();
      await page.getByRole('dialog').getByText('request_id').waitFor();
      details.push((await page.getByRole('dialog').textContent()) ?? '');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    }
    // The model ids the callers wrote, shown verbatim in the record.
    expect(details.join('\n')).toContain(HOSTILE.model.slice('provider_a:'.length));
    expect(details.join('\n')).toContain(HOSTILE.rtl.slice('provider_a:'.length));
    expect(await page.evaluate('window.__pwned ?? null')).toBeNull();
    expect(await page.locator('img, iframe, object, embed').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(external).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').waitFor();
  }, 120_000);

  it('walks the owner journey: sign in, create a token seen once, call, Logs, Usage, switch a model on, spend limit 402, revoke 401, sign out', async () => {
    await page.goto(`${gateway.adminUrl}/console/`);
    await page.getByLabel('Token').waitFor();
    await checkAccessibility(page, 'sign-in');
    await page.getByLabel('Token').fill('not-a-valid-admin-token-here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('That token was not accepted');
    await page.getByLabel('Token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The pasted token is kept nowhere in the browser.
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie + location.href')).not.toContain(ADMIN_TOKEN);

    await openPage(page, 'Tokens');
    const token = await createTokenSeenOnce(page, 'ci-bot', 'ci-bot@acme.example');
    expect(await page.content()).not.toContain(token);
    expect(readFileSync(config.file, 'utf8')).not.toContain(token);
    await checkAccessibility(page, 'tokens');

    const sdk = new Anthropic({ baseURL: gateway.url, authToken: token, apiKey: null, maxRetries: 0 });
    const answer = await sdk.messages.create({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: PROMPT }] });
    expect(answer.type).toBe('message');

    await openPage(page, 'Logs');
    await page.getByLabel('Address').fill('ci-bot@acme.example');
    await page.getByRole('button', { name: 'Filter' }).click();
    await reloadUntil(page, 'ci-bot@acme.example');
    expect(page.url()).toContain('address=ci-bot%40acme.example');
    await page
      .getByRole('button', { name: /^Open request / })
      .first()
      .click();
    const record = page.getByRole('dialog');
    await record.getByText('request_id').waitFor();
    expect(await record.textContent()).toContain('complete');
    await checkAccessibility(page, 'logs-record');
    await record.getByRole('button', { name: 'Close' }).click();
    expect(await page.content()).not.toContain(PROMPT);
    await checkAccessibility(page, 'logs');

    await openPage(page, 'Usage');
    await reloadUntil(page, 'ci-bot@acme.example');
    await page.getByLabel('Group by').selectOption('model');
    await page
      .getByRole('cell', { name: /^claude-haiku-4-5/ })
      .first()
      .waitFor();
    expect(page.url()).toContain('group_by=model');
    await page.getByRole('link', { name: 'Download CSV' }).waitFor();
    await checkAccessibility(page, 'usage');

    const pinned = 'provider_a:anthropic/claude-sonnet-4.5';
    await expect(sdk.messages.create({ model: pinned, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 403 });
    await openPage(page, 'Models');
    await switchModelOn(page, 'anthropic/claude-sonnet-4.5');
    await checkAccessibility(page, 'models');
    expect((await sdk.messages.create({ model: pinned, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })).type).toBe('message');

    await refuseBadZoneThenLimitTokensToZero(page);
    await checkAccessibility(page, 'settings');
    await expect(sdk.messages.create({ model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 402 });

    await openPage(page, 'Credentials');
    await page.getByRole('cell', { name: 'router-key' }).waitFor();
    expect(await page.content()).not.toContain('sk-ant-api03-browser-test');
    await checkAccessibility(page, 'credentials');

    await openPage(page, 'Tokens');
    await page.getByRole('button', { name: 'Revoke ci-bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
    await expect(sdk.messages.create({ model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 401 });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Token').waitFor();
    const after = await page.request.get(`${gateway.adminUrl}/console/api/me`);
    expect(after.status()).toBe(401);
    expect(external).toEqual([]);
    expect(dialogs).toEqual([]);
  }, 240_000);
});
