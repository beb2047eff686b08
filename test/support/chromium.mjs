// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot work
// here): one way to start it, shared by the browser tests and the console bench (s15), which is
// plain JavaScript and so cannot import a TypeScript module.
import { chromium } from 'playwright-core';

/** The browser binary: Debian's package, or GW_TEST_CHROMIUM. */
export const CHROMIUM = process.env.GW_TEST_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless, as root in a container: no sandbox (it needs user namespaces), /tmp rather than a
 * small /dev/shm, no GPU.
 */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}
