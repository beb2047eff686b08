import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../support/chromium.mjs';
import { writeGatewayConfig, type TestConfig } from '../../support/gateway-config.js';
import { ADMIN_TOKEN, adminGet, startGateway, waitForLogs, type GatewayProcess } from '../../support/gateway-process.js';
import { startMockProvider, type MockProvider } from '../../support/mock-provider.js';

/**
 * The Usage page with more groups than it lists (src/usage/top-groups.ts):
 * in Chromium, a month by end user with 13 end users shows 10 of them and one
 * "All others" row holding the other 3, totals that are every call's, and a
 * Download CSV with every end user.
 */
const END_USERS = 13;

describe('owner console in Chromium: Usage with more groups than the page lists', () => {
  let vendor: MockProvider;
  let gateway: GatewayProcess;
  let config: TestConfig;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    vendor = await startMockProvider();
    config = writeGatewayConfig({
      settings: { endUserRecording: true },
      tokens: ['alice'],
      credentials: [{ name: 'vendor-key', provider: 'vendor', baseUrl: vendor.url, secret: 'sk-ant-api03-folded-test-0000000000' }],
    });
    gateway = await startGateway(config.file);
    for (let i = 0; i < END_USERS; i++) {
      // End user i makes i + 1 calls, so each has its own cost and the 10 listed are the last 10.
      for (let j = 0; j <= i; j++) {
        const res = await fetch(`${gateway.url}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.tokens.alice}`, 'content-type': 'application/json', 'x-gw-end-user': `eu-${String(i).padStart(2, '0')}` },
          body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 4, messages: [{ role: 'user', content: 'x' }] }),
        });
        expect(res.status).toBe(200);
        await res.text();
      }
    }
    await waitForLogs(gateway, (END_USERS * (END_USERS + 1)) / 2);
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await vendor?.close();
  });

  it('lists the 10 costliest end users, sums the other 3 in "All others", and the totals and the CSV hold every call', async () => {
    await page.goto(`${gateway.adminUrl}/console/`);
    await page.getByLabel('Token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto(`${gateway.adminUrl}/console/?page=usage&company=acme&group_by=end_user&period=month`);
    await page.locator('main table tbody tr').first().waitFor();
    const rows = await page.locator('main table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows.map((r) => r[1])).toEqual([...Array.from({ length: 10 }, (_, k) => `eu-${String(END_USERS - 1 - k).padStart(2, '0')}`), 'All others (3)']);
    // The others are end users 0, 1 and 2: 1 + 2 + 3 calls.
    expect(rows.at(-1)?.[2]).toBe('6');
    const calls = (END_USERS * (END_USERS + 1)) / 2;
    expect(await page.locator('.totals').textContent()).toContain(`Requests${calls}`);
    await expect.poll(() => page.getByText(`${END_USERS} end users in this range`).count()).toBe(1);
    // Download CSV, with the page's own session: every end user.
    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const csv = await page.evaluate(`fetch(${JSON.stringify(href)}).then((r) => r.text())`);
    expect(String(csv).trim().split('\n').length - 1).toBe(END_USERS);
    // The Usage API behind gw usage: every end user too, and the same total cost as the page.
    const api = (await adminGet(gateway, '/admin/v1/usage?company=acme&group_by=end_user&period=month')).body as { data: { cost_usd: number }[] };
    expect(api.data).toHaveLength(END_USERS);
    const cost = api.data.reduce((s, r) => s + Math.round(r.cost_usd * 1e6), 0) / 1e6;
    expect(await page.locator('.totals').textContent()).toContain(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cost));
  });
});
