#!/usr/bin/env node
// Writes the generated list of supported services into docs/redaction.md
// (between the `generated: supported services` markers), from the rules in
// dist/. `--check` exits 1 when the document is out of date; the unit test
// test/unit/redaction/docs.test.ts makes the same check from the sources.
//
//   npm run build && node scripts/gen-redaction-doc.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'docs', 'redaction.md');
const { RULES } = await import(pathToFileURL(join(ROOT, 'dist', 'redaction', 'index.js')).href);
const { renderServiceList } = await import(pathToFileURL(join(ROOT, 'dist', 'redaction', 'rules', 'service-list.js')).href);

export const BEGIN = '<!-- generated: supported services (scripts/gen-redaction-doc.mjs) -->';
export const END = '<!-- end of generated list -->';

const doc = readFileSync(DOC, 'utf8');
const from = doc.indexOf(BEGIN);
const to = doc.indexOf(END);
if (from < 0 || to < from) {
  console.error(`docs/redaction.md needs the markers\n${BEGIN}\n${END}`);
  process.exit(1);
}
const next = `${doc.slice(0, from + BEGIN.length)}\n${renderServiceList(RULES)}\n${doc.slice(to)}`;
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/redaction.md is out of date: run npm run build && node scripts/gen-redaction-doc.mjs');
    process.exit(1);
  }
} else writeFileSync(DOC, next);
