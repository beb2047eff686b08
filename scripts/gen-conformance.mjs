#!/usr/bin/env node
// Writes docs/conformance.md, the conformance matrix: one row per normative
// statement of the specification (docs/conformance/statements.yaml, in our
// words), the tests that prove it on each data plane, and their result.
//
// Tests name the statements they prove by id in their titles, e.g.
// `it('[S4.1-r1] [S5-d] a bad bearer gets 401 ...')`. A test file whose suite
// runs `describe.each(DATA_PLANES)` (or the resilience PLANES) proves the
// statement on both data planes; any other test counts as "other" (unit,
// integration, one-plane e2e). Results are read from the vitest JSON report
// (.test-results/vitest.json, written by every `vitest run`).
//
//   node scripts/gen-conformance.mjs            write docs/conformance.md (results from the last run)
//   node scripts/gen-conformance.mjs --check    exit 1 when docs/conformance.md differs from a fresh generation
//   node scripts/gen-conformance.mjs --results FILE [--results FILE2 ...]   read (and merge) these reports instead
//
// `make test` runs --check after the suite, so the committed matrix always
// matches the tests and their results; test/unit/conformance/matrix.test.ts
// checks the parts that need no results (rows, tests, gaps) on every run.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = join(ROOT, 'docs', 'conformance.md');
const STATEMENTS = join(ROOT, 'docs', 'conformance', 'statements.yaml');
const DEFAULT_RESULTS = join(ROOT, '.test-results', 'vitest.json');

/** Plane names exactly as the e2e suites print them in test names. */
export const PLANE_NAMES = { serve: 'gw serve', envoy: 'Envoy harness + gw extproc' };
export const TAG = /\[(S\d+(?:\.\d+)?-[a-z0-9]+)\]/g;
export const KINDS = ['plane', 'control', 'guidance', 'not-shown'];
/** The result column when no results are read (the unit test compares the rest). */
export const UNREAD = '(not read)';

export function loadStatements() {
  return parse(readFileSync(STATEMENTS, 'utf8'));
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** The string literal that starts at `text[start]` (a quote), unescaped. */
function literalAt(text, start) {
  const quote = text[start];
  let out = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      out += text[i + 1];
      i++;
    } else if (c === quote) return out;
    else if (quote === '`' && c === '$' && text[i + 1] === '{') return null;
    else out += c;
  }
  return null;
}

/** Every tagged test: file (relative), title, tags, and whether it runs on both data planes. */
export function scanTests() {
  const tests = [];
  for (const path of walk(join(ROOT, 'test'))) {
    const text = readFileSync(path, 'utf8');
    const bothPlanes = /describe\.each\((DATA_PLANES|PLANES)\)/.test(text);
    for (const match of text.matchAll(/\b(?:it|test)\(\s*(['"`])/g)) {
      const title = literalAt(text, (match.index ?? 0) + match[0].length - 1);
      if (title === null) continue;
      const tags = [...title.matchAll(TAG)].map((m) => m[1]);
      if (tags.length === 0) continue;
      tests.push({ file: relative(ROOT, path), title, tags, bothPlanes });
    }
  }
  return tests;
}

/** (file, title, plane|'other') -> 'passed' | 'failed' | ..., from a vitest JSON report. */
export function readResults(files) {
  const reports = (Array.isArray(files) ? files : [files]).filter((f) => existsSync(f)).map((f) => JSON.parse(readFileSync(f, 'utf8')));
  if (reports.length === 0) return null;
  const results = new Map();
  for (const report of reports) {
    const mine = new Map();
    for (const suite of report.testResults ?? []) {
      const path = relative(ROOT, suite.name);
      for (const test of suite.assertionResults ?? []) {
        const ancestors = (test.ancestorTitles ?? []).join(' ');
        let plane = 'other';
        if (ancestors.includes(`'${PLANE_NAMES.envoy}'`) || ancestors.includes(PLANE_NAMES.envoy)) plane = 'envoy';
        else if (ancestors.includes(`'${PLANE_NAMES.serve}'`) || ancestors.includes(`through ${PLANE_NAMES.serve}`)) plane = 'serve';
        const key = `${path}\u0000${test.title}\u0000${plane}`;
        // Within one run a failure (of a repeated title) wins; a test filtered out of a run says nothing.
        if (test.status === 'skipped' || test.status === 'pending' || test.status === 'todo') continue;
        if (mine.get(key) !== 'failed') mine.set(key, test.status);
      }
    }
    // A later report (a rerun of some files) replaces what an earlier one said about the same tests.
    for (const [key, status] of mine) results.set(key, status);
  }
  return results;
}

function cell(text) {
  return String(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function short(title) {
  const plain = title.replace(TAG, '').replace(/\s+/g, ' ').trim();
  return plain.length > 90 ? `${plain.slice(0, 87)}...` : plain;
}

function testRef(test) {
  return `${test.file.replace(/^test\//, '')}: "${short(test.title)}"`;
}

/** The rows of the matrix: statement, tests per plane, gaps. */
export function buildRows(statements, tests) {
  return statements.map((s) => {
    const mine = tests.filter((t) => t.tags.includes(s.id));
    const both = mine.filter((t) => t.bothPlanes);
    const other = mine.filter((t) => !t.bothPlanes);
    const gaps = [];
    if (s.kind === 'plane' && both.length === 0) gaps.push('no test on both data planes');
    if (s.kind === 'control' && mine.length === 0) gaps.push('no test');
    if ((s.kind === 'not-shown' || s.kind === 'guidance') && !s.doc) gaps.push('not documented');
    if (s.kind === 'not-shown' && !s.decision) gaps.push('no decision');
    return { statement: s, both, other, gaps };
  });
}

function resultOf(row, results) {
  if (row.gaps.length > 0) return `GAP: ${row.gaps.join(', ')}`;
  if (results === null) return UNREAD;
  const runs = [];
  for (const t of row.both) for (const plane of ['serve', 'envoy']) runs.push(results.get(`${t.file}\u0000${t.title}\u0000${plane}`));
  for (const t of row.other) runs.push(results.get(`${t.file}\u0000${t.title}\u0000other`));
  if (runs.length === 0) return row.statement.kind === 'not-shown' ? 'decided' : 'documented';
  if (runs.some((r) => r === 'failed')) return 'FAIL';
  if (runs.some((r) => r === undefined)) return 'not run';
  if (runs.every((r) => r === 'passed')) return 'pass';
  return runs.find((r) => r !== 'passed');
}

export function render(rows, results) {
  const lines = [
    '# Conformance matrix',
    '',
    '<!-- Generated by `node scripts/gen-conformance.mjs` from docs/conformance/statements.yaml, the test titles and the',
    '     vitest JSON report. Do not edit by hand; `make test` fails when this file is out of date. -->',
    '',
    'One row per normative statement of the product specification (`shared/spec`), in our words, with its section.',
    'A test proves the statements whose ids its title carries (for example `[S4.1-r1]`). The e2e suites run unchanged on',
    'both data planes: **gw serve** and **Envoy + gw extproc** (the Envoy-faithful harness in front of `gw extproc`);',
    '"other" lists unit, integration and single-plane tests. Statements the specification marks "not shown" give the',
    'decision we made and where it is documented. Kinds: `plane` (a caller sees it: needs a test on both planes),',
    '`control` (owners, CLI, operator: needs a test), `guidance` (advice: documented), `not-shown` (our decision).',
    '',
  ];
  const counts = { rows: rows.length, gaps: rows.filter((r) => r.gaps.length > 0).length };
  lines.push(`${counts.rows} statements, ${counts.gaps} gaps.`, '');
  lines.push('| id | § | kind | statement | gw serve and Envoy + gw extproc | other tests | result |', '|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const s = row.statement;
    let text = s.statement;
    if (s.decision) text += ` **Decision:** ${s.decision}`;
    if (s.doc) text += ` (documented in [${s.doc}](${s.doc.replace(/^docs\//, '').replace(/^README\.md/, '../README.md')}))`;
    lines.push(`| ${s.id} | ${s.section} | ${s.kind} | ${cell(text)} | ${cell(row.both.map(testRef).join('<br>'))} | ${cell(row.other.map(testRef).join('<br>'))} | ${cell(resultOf(row, results))} |`);
  }
  lines.push('');
  return lines.join('\n');
}

export function generate(resultsFile = DEFAULT_RESULTS) {
  const rows = buildRows(loadStatements(), scanTests());
  return render(rows, resultsFile === null ? null : readResults(resultsFile));
}

/** A generated matrix with its result column blanked, for comparisons that need no test run. */
export function withoutResults(markdown) {
  return markdown
    .split('\n')
    .map((line) => (/^\| S\d/.test(line) ? line.replace(/\| ([^|]*) \|$/, (all, result) => (result.startsWith('GAP') ? all : `| ${UNREAD} |`)) : line))
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  // Several --results files merge (reports of runs of different test files).
  const files = args.flatMap((a, i) => (args[i - 1] === '--results' ? [a] : []));
  const resultsFile = files.length > 0 ? files : DEFAULT_RESULTS;
  const text = generate(resultsFile);
  if (args.includes('--check')) {
    const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
    if (current !== text) {
      console.error('docs/conformance.md is out of date: run `node scripts/gen-conformance.mjs` after a full `make test` and commit it.');
      const a = current.split('\n');
      const b = text.split('\n');
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (a[i] !== b[i]) {
          console.error(`first difference at line ${i + 1}:\n- ${a[i] ?? ''}\n+ ${b[i] ?? ''}`);
          break;
        }
      }
      process.exit(1);
    }
    console.log('docs/conformance.md is up to date');
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${relative(ROOT, OUT)}`);
  }
}
