import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export { CHROMIUM, launchChromium } from './chromium.mjs';

/**
 * Shared by the console's browser tests: the browser (chromium.mjs, which
 * the s15 bench shares) and the steps every journey takes through the
 * console's navigation.
 */

/** Follows a navigation link and waits until the page it names has loaded. */
export async function openPage(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe(link);
  await page.getByText('Loading…').waitFor({ state: 'detached' });
}

/** Reloads the page until `text` shows (records reach the store a moment after the answer). */
export async function reloadUntil(page: Page, text: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if ((await page.getByText(text, { exact: true }).count()) > 0) return;
    await new Promise((r) => setTimeout(r, 500));
    await page.reload();
    await page.getByText('Loading…').waitFor({ state: 'detached' });
  }
  throw new Error(`"${text}" did not show on the page`);
}

/** Creates a token on the Tokens page: its gwct_ value is shown once, in a dialog with Copy, then its row with `address`. */
export async function createTokenSeenOnce(page: Page, name: string, address: string): Promise<string> {
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const shown = page.getByRole('textbox', { name: `Token ${name}` });
  await shown.waitFor();
  const token = await shown.inputValue();
  expect(token).toMatch(/^gwct_/);
  await page.getByRole('dialog').getByRole('button', { name: 'Copy' }).waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  await page.getByRole('cell', { name: address }).waitFor();
  return token;
}

/** On the Models page: the model's switch is off, is turned on, and stays on once the server has it. */
export async function switchModelOn(page: Page, model: string): Promise<void> {
  const toggle = page.getByRole('switch', { name: model });
  expect(await toggle.isChecked()).toBe(false);
  await toggle.check();
  await expect.poll(() => page.getByRole('switch', { name: model }).isChecked()).toBe(true);
}

/** On Settings: a time zone that is not IANA is refused with the operator's text; a valid one with a token limit of 0 is saved. */
export async function refuseBadZoneThenLimitTokensToZero(page: Page): Promise<void> {
  await openPage(page, 'Settings');
  await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
  await page.getByRole('button', { name: 'Save spend limits' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('"Mars/Olympus_Mons" is not an IANA time zone');
  await page.getByLabel('Time zone').fill('Europe/Paris');
  await page.getByLabel('Each token, daily (USD)').fill('0');
  await page.getByRole('button', { name: 'Save spend limits' }).click();
  await expect.poll(() => page.getByLabel('Each token, daily (USD)').inputValue()).toBe('0');
}
