import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ENVOY_TABLE_BEGIN,
  ENVOY_TABLE_END,
  README_BEGIN,
  README_END,
  README_ENV_BEGIN,
  README_ENV_END,
  renderCliDoc,
  renderEnvoySettingsTable,
  renderReadmeCommands,
  renderReadmeEnvironment,
} from '../../../src/cli/cli-doc.js';
import { ENV_SETTINGS } from '../../../src/config/env-settings.js';
import { COMMANDS } from '../../../src/config/commands.js';
import { ENVOY_SETTING_DEFS } from '../../../src/config/envoy-settings.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIX = 'run `npm run build && node scripts/gen-cli-doc.mjs` after changing src/config/commands.ts';

describe('docs/cli.md and the README command list', () => {
  it('docs/cli.md is what the command definitions make', () => {
    expect(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8'), FIX).toBe(renderCliDoc());
  });

  it("the README's command list is what the command definitions make", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const begin = readme.indexOf(README_BEGIN);
    const end = readme.indexOf(README_END);
    expect(begin, 'README.md has the command-list markers').toBeGreaterThan(-1);
    expect(readme.slice(begin, end + README_END.length), FIX).toBe(renderReadmeCommands());
  });

  it("the README's environment-only settings are what src/config/env-settings.ts declares", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const begin = readme.indexOf(README_ENV_BEGIN);
    const end = readme.indexOf(README_ENV_END);
    expect(begin, 'README.md has the environment markers').toBeGreaterThan(-1);
    expect(readme.slice(begin, end + README_ENV_END.length), FIX).toBe(renderReadmeEnvironment());
    // No environment-only setting is described a second time outside the generated block.
    const outside = readme.slice(0, begin) + readme.slice(end);
    for (const s of ENV_SETTINGS) expect(outside, s.name).not.toMatch(new RegExp(`\\| \`${s.name}\``));
  });

  it('documents every environment-only setting with its default in docs/cli.md', () => {
    const doc = renderCliDoc();
    for (const s of ENV_SETTINGS) expect(doc, s.name).toContain(`| \`${s.name}\` |`);
  });

  it('documents every command and every flag', () => {
    const doc = renderCliDoc();
    for (const c of COMMANDS) {
      expect(doc).toContain(`## gw ${c.name}\n`);
      for (const o of c.options) expect(doc, `${c.name} --${o.name}`).toContain(`--${o.name}`);
    }
  });

  it("docs/extproc.md's table of gw envoy-config settings is what src/config/envoy-settings.ts declares", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'extproc.md'), 'utf8');
    const begin = doc.indexOf(ENVOY_TABLE_BEGIN);
    const end = doc.indexOf(ENVOY_TABLE_END);
    expect(begin, 'docs/extproc.md has the settings-table markers').toBeGreaterThan(-1);
    expect(doc.slice(begin, end + ENVOY_TABLE_END.length), FIX).toBe(renderEnvoySettingsTable());
    for (const d of ENVOY_SETTING_DEFS) expect(renderEnvoySettingsTable(), d.key).toContain(`| \`${d.key}\``);
  });
});
