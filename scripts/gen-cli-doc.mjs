#!/usr/bin/env node
// Writes docs/cli.md, the command list and the environment-only settings in README.md, and
// the settings table of `gw envoy-config` in docs/extproc.md, from src/config/commands.ts,
// src/config/env-settings.ts and src/config/envoy-settings.ts (through the build in dist/).
//
//   node scripts/gen-cli-doc.mjs           rewrite both
//   node scripts/gen-cli-doc.mjs --check   exit 1 when either is out of date
//
// test/unit/cli/cli-doc.test.ts does the same comparison, so a changed flag
// without regenerated docs fails the tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { renderCliDoc, withEnvoySettingsTable, withReadmeCommands, withReadmeEnvironment } = await import(join(ROOT, 'dist', 'cli', 'cli-doc.js'));

const targets = [
  [join(ROOT, 'docs', 'cli.md'), () => renderCliDoc()],
  [join(ROOT, 'README.md'), () => withReadmeEnvironment(withReadmeCommands(readFileSync(join(ROOT, 'README.md'), 'utf8')))],
  [join(ROOT, 'docs', 'extproc.md'), () => withEnvoySettingsTable(readFileSync(join(ROOT, 'docs', 'extproc.md'), 'utf8'))],
];

let stale = 0;
for (const [path, render] of targets) {
  const want = render();
  let have = '';
  try {
    have = readFileSync(path, 'utf8');
  } catch {
    // A missing file is simply out of date.
  }
  if (have === want) continue;
  if (process.argv.includes('--check')) {
    process.stderr.write(`${path} is out of date: run npm run build && node scripts/gen-cli-doc.mjs\n`);
    stale++;
  } else {
    writeFileSync(path, want);
    process.stdout.write(`wrote ${path}\n`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
