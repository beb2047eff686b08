import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README_BEGIN, README_END, renderCliDoc, renderReadmeCommands } from '../../../src/cli/cli-doc.js';
import { COMMANDS } from '../../../src/config/commands.js';

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

  it('documents every command and every flag', () => {
    const doc = renderCliDoc();
    for (const c of COMMANDS) {
      expect(doc).toContain(`## gw ${c.name}\n`);
      for (const o of c.options) expect(doc, `${c.name} --${o.name}`).toContain(`--${o.name}`);
    }
  });
});
