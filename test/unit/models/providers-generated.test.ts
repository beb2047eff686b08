import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BARE_PROVIDER, callerModelId, PINNABLE_PROVIDERS, PROVIDER_INFO, PROVIDERS } from '../../../src/models/providers.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * A provider is declared once (PROVIDER_INFO); the CRDs' provider enum and
 * models block, their chart copies and the chart's provider addresses are
 * generated from it (scripts/gen-providers.mjs reads the built table, so
 * `npm run build` runs first, as `make test` does).
 */
describe('the provider table', () => {
  it('is what the CRDs and the chart were generated from', () => {
    let failure = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-providers.mjs'), '--check'], { cwd: ROOT, stdio: 'pipe' });
    } catch (error) {
      failure = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(failure, 'regenerate with: npm run build && node scripts/gen-providers.mjs').toBe('');
  });

  it('has exactly one provider for bare ids, and every other one is pinned by its own name', () => {
    expect(PROVIDERS.filter((p) => PROVIDER_INFO[p].idPrefix === '')).toEqual([BARE_PROVIDER]);
    for (const p of PINNABLE_PROVIDERS) expect(PROVIDER_INFO[p].idPrefix).toBe(`${p}:`);
    expect(callerModelId('provider_b', 'deepseek-chat')).toBe('provider_b:deepseek-chat');
    expect(callerModelId(BARE_PROVIDER, 'claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
  });

  it('gives every provider a model list path, a GenAI name and an auth scheme', () => {
    for (const p of PROVIDERS) {
      const info = PROVIDER_INFO[p];
      expect(info.modelListPath, p).toMatch(/^\/v1\//);
      expect(info.genAiName.length, p).toBeGreaterThan(0);
      expect(['xApiKey', 'bearer'], p).toContain(info.authScheme);
    }
  });
});
