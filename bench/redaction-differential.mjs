#!/usr/bin/env node
// Compares two builds of the redactor finding for finding: every case of
// every evaluation set (tuning, held-out, gitleaks tp and fp samples, each in
// every embedding the scorers use, and as plain text) is redacted by both,
// and any difference in findings or output bytes is listed. A speed change that must not change what is found is checked with
// it against the build before the change:
//
//   cp -r dist /tmp/base-dist   # before the change
//   npm run build && node bench/redaction-differential.mjs --base /tmp/base-dist/redaction/index.js
//
// Output names case indexes and rule ids only, never sample text.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const basePath = arg('--base');
if (basePath === undefined) {
  console.error('usage: node bench/redaction-differential.mjs --base <old dist/redaction/index.js> [--new <dist/redaction/index.js>]');
  process.exit(2);
}
const base = await import(resolve(basePath));
const next = await import(resolve(arg('--new') ?? resolve(root, 'dist/redaction/index.js')));
const corpus = process.env.GITLEAKS_CASES ?? resolve(root, '../shared/eval/secrets/gitleaks-cases.jsonl');
const { generateSet } = await import('./redaction-sets/generate.mjs');
const { EMBEDDINGS } = await import('./redaction-sets/score.mjs');

const texts = [];
for (const name of ['tuning', 'held-out']) {
  generateSet(name).forEach((c, i) => texts.push({ set: name, index: i, text: c.text }));
}
if (existsSync(corpus)) {
  readFileSync(corpus, 'utf8')
    .split('\n')
    .filter(Boolean)
    .forEach((line, i) => texts.push({ set: 'gitleaks', index: i, text: JSON.parse(line).text }));
} else {
  console.log(`gitleaks corpus not found at ${corpus}: left out`);
}

const same = (a, b) =>
  a.body.equals(b.body) &&
  a.findings.length === b.findings.length &&
  a.findings.every((f, k) => {
    const g = b.findings[k];
    return f.start === g.start && f.end === g.end && f.ruleId === g.ruleId;
  });

let bodies = 0;
const differences = [];
for (const t of texts) {
  const inputs = [['text', Buffer.from(t.text, 'utf8'), false]];
  for (const e of EMBEDDINGS) inputs.push([e.name, e.build(t.text), true]);
  for (const [where, input, json] of inputs) {
    const run = (m) => (json ? m.redactJsonBody(input) : m.redactText(input));
    const a = run(base);
    const b = run(next);
    bodies++;
    if (!same(a, b)) {
      differences.push(`${t.set} #${t.index} (${where}): [${a.findings.map((f) => f.ruleId).join(' ')}] -> [${b.findings.map((f) => f.ruleId).join(' ')}]`);
    }
  }
}
console.log(`${texts.length} cases, ${bodies} bodies compared; ${differences.length} differ`);
for (const d of differences.slice(0, 200)) console.log(`  ${d}`);
process.exit(differences.length === 0 ? 0 : 1);
