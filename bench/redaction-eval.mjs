#!/usr/bin/env node
// Recall and false positives of the redaction rules on three evaluation
// sets, each embedded in Anthropic request bodies:
//
// - tuning:   bench/redaction-sets, seed 0x7e57, TUNING templates. Rules may be tuned on it.
// - held-out: bench/redaction-sets, seed 0x4e1d, HELD_OUT templates. Only scored, never tuned on.
// - gitleaks: the shared labelled gitleaks samples (the corpus the first rules were written against).
//
//   npm run build && node bench/redaction-eval.mjs [--set tuning|held-out|gitleaks] [--detail] [--by-rule] [--scan-dir DIR]
//
// --detail lists recall per service and per shape, and every miss and false
// positive (case index, service, shape, rules that fired; never the text).
//
// The corpus is read from ../shared/eval/secrets/ beside the project (or
// $GITLEAKS_CASES); it is never copied into the project. Output names sample
// numbers and gitleaks rule ids only, never sample text.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.REDACTION_DIST ?? resolve(root, 'dist/redaction/index.js');
const corpus = process.env.GITLEAKS_CASES ?? resolve(root, '../shared/eval/secrets/gitleaks-cases.jsonl');
const { redactText, redactJsonBody, RULES } = await import(dist);
const byRule = process.argv.includes('--by-rule');
const detail = process.argv.includes('--detail');
const setArg = process.argv.indexOf('--set');
const only = setArg > 0 ? process.argv[setArg + 1] : null;
const { generateSet } = await import('./redaction-sets/generate.mjs');
const { scoreSet } = await import('./redaction-sets/score.mjs');
const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);
const ratio = (t) => `${t.ok}/${t.n} = ${pct(t.ok, t.n)}`;

console.log(`rules: ${RULES.length}\n`);
console.log('## Independent sets (bench/redaction-sets)\n');
console.log('| set | services | recall, widely-used services | recall, all | negatives untouched | cases with a copy left behind | bodies changed outside spans |');
console.log('|---|---|---|---|---|---|---|');
const scored = {};
for (const name of ['tuning', 'held-out']) {
  if (only !== null && only !== name) continue;
  const cases = generateSet(name);
  const r = scoreSet(cases, (b) => redactJsonBody(b));
  scored[name] = r;
  console.log(`| ${name} | ${r.byService.size} | ${ratio(r.widely)} | ${ratio(r.positives)} | ${ratio(r.negatives)} | ${r.partialCopies} | ${r.broken} |`);
}
for (const [name, r] of Object.entries(scored)) {
  console.log(`\n### ${name}: by shape\n`);
  console.log('| shape | recall |\n|---|---|');
  for (const [shape, t] of [...r.byShape].sort((a, b) => a[1].ok / a[1].n - b[1].ok / b[1].n)) console.log(`| ${shape} | ${ratio(t)} |`);
  console.log('\n| negative shape | untouched |\n|---|---|');
  for (const [shape, t] of r.negByShape) console.log(`| ${shape} | ${ratio(t)} |`);
  console.log('\n| embedded in | recall |\n|---|---|');
  for (const [e, t] of r.byEmbedding) console.log(`| ${e} | ${ratio(t)} |`);
  const weak = [...r.byService].filter(([, t]) => t.ok < t.n).sort((a, b) => a[1].ok / a[1].n - b[1].ok / b[1].n);
  console.log(`\n${r.byService.size - weak.length} of ${r.byService.size} services at 100 %; below that:\n`);
  console.log('| service | recall |\n|---|---|');
  for (const [svc, t] of weak) console.log(`| ${svc} | ${ratio(t)} |`);
  if (detail) {
    console.log(`\nall services: ${[...r.byService].map(([svc, t]) => `${svc} ${t.ok}/${t.n}`).join(', ')}`);
    console.log('\nmisses: case service shape embedding [rules that fired]');
    for (const m of r.misses) console.log(`  ${m.index} ${m.service} ${m.shape} (${m.embedding}) [${m.found.join(' ')}]`);
    console.log('\nfalse positives: case shape [rules]');
    for (const f of r.falsePositives) console.log(`  ${f.index} ${f.shape} [${f.rules.join(' ')}]`);
  }
}
if (only === null || only === 'published') {
  const { TUNING, HELD_OUT, scoreSource } = await import('./redaction-sets/published.mjs');
  console.log('\n## Published samples of other projects, by source project (bench/redaction-sets/published)\n');
  console.log('| source project | side | recall, widely-used services | recall, all | negatives untouched | widely used, values not placeholder-shaped |');
  console.log('|---|---|---|---|---|---|');
  const results = [];
  for (const name of [...TUNING, ...HELD_OUT]) {
    const r = scoreSource(name, (b) => redactJsonBody(b));
    results.push([name, r]);
    const side = TUNING.includes(name) ? 'tuning' : 'held out';
    console.log(`| ${name} | ${side} | ${ratio(r.widely)} | ${ratio(r.positives)} | ${ratio(r.negatives)} | ${ratio(r.widelyRandom)} |`);
  }
  for (const [label, names] of [
    ['tuning', TUNING],
    ['held out', HELD_OUT],
  ]) {
    const sum = (k) =>
      names.reduce(
        (t, n) => {
          const x = results.find((y) => y[0] === n)[1][k];
          return { ok: t.ok + x.ok, n: t.n + x.n };
        },
        { ok: 0, n: 0 },
      );
    console.log(`| **all ${label}** | | ${ratio(sum('widely'))} | ${ratio(sum('positives'))} | ${ratio(sum('negatives'))} | ${ratio(sum('widelyRandom'))} |`);
  }
  if (detail) {
    for (const [name, r] of results) {
      if (!TUNING.includes(name) && !process.argv.includes('--held-out-detail')) continue;
      console.log(`\n${name} misses: sample rule [rules that fired]`);
      for (const m of r.misses) console.log(`  ${m.index} ${m.rule} [${m.found.join(' ')}]`);
      console.log(`${name} false positives: sample rule [rules]`);
      for (const f of r.falsePositives) console.log(`  ${f.index} ${f.rule} [${f.found.join(' ')}]`);
    }
  }
}
if (only === null || only === 'precision') {
  const { scorePrecision } = await import('./redaction-sets/precision.mjs');
  const p = scorePrecision((b) => redactJsonBody(b));
  console.log('\n## Precision set: real content without credentials (bench/redaction-sets/precision)\n');
  console.log('| content | MB | lines | lines changed |\n|---|---|---|---|');
  let lines = 0;
  let changedLines = 0;
  for (const [kind, t] of p.byKind) {
    if (!kind.includes('example credentials')) {
      lines += t.lines;
      changedLines += t.changed;
    }
    console.log(`| ${kind} | ${(t.bytes / 1e6).toFixed(2)} | ${t.lines} | ${t.changed} (${pct(t.changed, t.lines)}) |`);
  }
  const partial = p.missing.length + p.unexpected.length > 0 ? ` (**not the whole set**: ${p.missing.length} parts missing, ${p.unexpected.length} not as pinned, below)` : '';
  console.log(`| **all secret-free content**${partial} | | ${lines} | ${changedLines} (${((100 * changedLines) / lines).toFixed(3)} %) |`);
  console.log('\n| protected value | came through unchanged |\n|---|---|');
  for (const [k, t] of Object.entries(p.protectedCounts)) console.log(`| ${k} | ${ratio({ ok: t.kept, n: t.n })} |`);
  console.log('\n| part (fetched or read at bench time) | lines |\n|---|---|');
  for (const [part, n] of p.partLines) console.log(`| ${part} | ${n} |`);
  console.log('\n| fetched part | from | licence, read from the package |\n|---|---|---|');
  for (const l of p.licences) console.log(`| ${l.kind} | ${l.from} | ${l.files.join(', ')} ("${l.firstLine}") |`);
  // A smaller set is never reported as the whole: each part that could not be had is named, with the reason.
  for (const m of p.missing) console.log(`\n**missing part ${m.kind}** (${m.from}), not scored: ${m.reason}`);
  for (const u of p.unexpected) console.log(`\n**part ${u.kind} has ${u.lines} lines, not the ${u.expected} measured**: its content is not the pinned one`);
  if (detail) for (const c of p.changed) console.log(`  changed ${c.name}:${c.line} [${[...new Set(c.rules)].join(' ')}]`);
}
if (only !== null && only !== 'gitleaks') process.exit(0);
console.log('\n## Shared gitleaks samples\n');

const samples = readFileSync(corpus, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

// Generous budget: this measures what the rules find, not the time limit.
const OPTIONS = { budgetMs: 10_000 };

// Each way a sample reaches the scanner: as text, or inside a request body.
// `escape` turns the sample's text into the bytes it has in that body.
const jsonEscape = (s) => JSON.stringify(s).slice(1, -1);
const VARIANTS = {
  text: { build: (t) => Buffer.from(t, 'utf8'), escape: (s) => s, json: false },
  'message text block': {
    build: (t) => body([{ role: 'user', content: [{ type: 'text', text: t }] }]),
    escape: jsonEscape,
    json: true,
  },
  'tool_use input': {
    build: (t) =>
      body([
        { role: 'user', content: 'Save this file.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_01', name: 'write_file', input: { path: 'notes/config.txt', options: { content: t } } }],
        },
      ]),
    escape: jsonEscape,
    json: true,
  },
  tool_result: {
    build: (t) =>
      body([
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'config.txt' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: t }] },
      ]),
    escape: jsonEscape,
    json: true,
  },
  'tool_result (JSON in a string)': {
    build: (t) =>
      body([
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'run', input: { cmd: 'cat out.json' } }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: JSON.stringify({ stdout: t, exit: 0 }) }],
        },
      ]),
    escape: (s) => jsonEscape(jsonEscape(s)),
    json: true,
  },
};

function body(messages) {
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'You are a careful assistant.', messages }), 'utf8');
}

// The credential inside a reported span: gitleaks sometimes reports the
// quotes around a value (or a stray quote or backslash) too, which a
// redactor keeps.
function core(secret) {
  return secret.replace(/^["'`]+|["'`\\]+$/g, '');
}

function covered(findings, start, end) {
  let at = start;
  for (const f of findings) {
    if (f.start <= at && f.end > at) at = f.end;
    if (at >= end) return true;
  }
  return at >= end;
}

function allSecretsRedacted(input, result, secrets, escape) {
  const findings = [...result.findings].sort((a, b) => a.start - b.start);
  for (const secret of secrets) {
    const needle = Buffer.from(escape(core(secret)), 'utf8');
    let from = input.indexOf(needle);
    if (from < 0) return false;
    while (from >= 0) {
      if (!covered(findings, from, from + needle.length)) return false;
      from = input.indexOf(needle, from + 1);
    }
  }
  return true;
}

// Every byte outside the reported spans must be unchanged, and JSON must stay JSON.
function intact(input, result, json) {
  let expected = [];
  let from = 0;
  for (const f of result.findings) {
    expected.push(input.subarray(from, f.start), Buffer.from(`[REDACTED: ${f.ruleId}]`));
    from = f.end;
  }
  expected.push(input.subarray(from));
  if (!Buffer.concat(expected).equals(result.body)) return false;
  if (json) {
    try {
      JSON.parse(result.body.toString('utf8'));
    } catch {
      return false;
    }
  }
  return true;
}

// A tp sample counts if each reported secret occurs in its text; a few
// gitleaks labels are empty (file-name rules) or not substrings of the text.
const tp = samples.filter((s) => s.kind === 'tp' && s.secrets.some((x) => x.length > 0) && s.secrets.every((x) => s.text.includes(core(x))));
const fp = samples.filter((s) => s.kind === 'fp' && s.all_rules.length === 0);
const skipped = samples.filter((s) => s.kind === 'tp').length - tp.length;

console.log(`corpus: ${samples.length} samples`);
console.log(`tp samples: ${tp.length} (${skipped} left out: no text to scan, or the labelled secret is not in the text); fp samples with no gitleaks rule firing: ${fp.length}\n`);
console.log('| variant | recall (tp fully redacted) | clean fp (nothing redacted) | body intact |');
console.log('|---|---|---|---|');

const missesByRule = new Map();
const fpByRule = new Map();
let broken = 0;
for (const [name, v] of Object.entries(VARIANTS)) {
  let hit = 0;
  let clean = 0;
  let ok = 0;
  let total = 0;
  tp.forEach((s, i) => {
    const input = v.build(s.text);
    const r = v.json ? redactJsonBody(input, OPTIONS) : redactText(input, OPTIONS);
    total++;
    if (intact(input, r, v.json)) ok++;
    if (
      allSecretsRedacted(
        input,
        r,
        s.secrets.filter((x) => x.length > 0),
        v.escape,
      )
    )
      hit++;
    else if (name === 'text') missesByRule.set(s.rule, [...(missesByRule.get(s.rule) ?? []), i]);
  });
  fp.forEach((s, i) => {
    const input = v.build(s.text);
    const r = v.json ? redactJsonBody(input, OPTIONS) : redactText(input, OPTIONS);
    total++;
    if (intact(input, r, v.json)) ok++;
    if (r.findings.length === 0) clean++;
    else if (name === 'text') fpByRule.set(s.rule, [...(fpByRule.get(s.rule) ?? []), `${i}:${r.findings.map((f) => f.ruleId).join('+')}`]);
  });
  if (ok !== total) broken += total - ok;
  console.log(`| ${name} | ${hit}/${tp.length} = ${pct(hit, tp.length)} | ${clean}/${fp.length} = ${pct(clean, fp.length)} | ${ok}/${total} |`);
}

// gitleaks lets some real-format Google API keys through by listing their
// values (known public keys); a value list is configuration we do not copy,
// so these stay redacted. Shown separately so the rest of the figure reads.
const googleKeys = fp.filter((s) => {
  if (s.rule !== 'gcp-api-key') return false;
  const r = redactText(Buffer.from(s.text, 'utf8'), OPTIONS);
  return r.findings.length > 0 && r.findings.every((f) => f.ruleId === 'gcp-api-key');
}).length;
if (googleKeys > 0) {
  const cleanText = fp.length - [...fpByRule.values()].reduce((n, l) => n + l.length, 0);
  console.log(
    `\n${googleKeys} of the redacted fp samples are well-formed Google API keys that gitleaks allowlists by value;` +
      ` without them the clean-fp share (text) is ${cleanText}/${fp.length - googleKeys} = ${pct(cleanText, fp.length - googleKeys)}.`,
  );
}

if (byRule || process.env.CI) {
  console.log('\nmissed tp samples (text variant), by gitleaks rule: count [tp indexes]');
  for (const [rule, list] of [...missesByRule].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${rule}: ${list.length} [${list.slice(0, 12).join(' ')}${list.length > 12 ? ' …' : ''}]`);
  }
  console.log('\nredacted fp samples (text variant), by gitleaks rule: [fp index:our rules]');
  for (const [rule, list] of fpByRule) console.log(`  ${rule}: ${list.join(' ')}`);
}
// --scan-dir DIR: findings on real files that should hold no credentials
// (e.g. node_modules), by rule: a false-positive check outside the corpus.
const dirArg = process.argv.indexOf('--scan-dir');
if (dirArg > 0) {
  const { readdirSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const files = [];
  const walk = (d, depth) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) depth < 8 && walk(p, depth + 1);
      else if (/\.(?:js|mjs|cjs|ts|md|json|ya?ml|py|go)$/.test(e) && st.size < 400_000) files.push(p);
    }
  };
  walk(resolve(process.argv[dirArg + 1]), 0);
  let bytes = 0;
  const byRuleFound = {};
  for (const f of files) {
    const buf = readFileSync(f);
    bytes += buf.length;
    for (const x of redactText(buf, OPTIONS).findings) byRuleFound[x.ruleId] = (byRuleFound[x.ruleId] ?? 0) + 1;
  }
  const total = Object.values(byRuleFound).reduce((a, b) => a + b, 0);
  console.log(`\n--scan-dir: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, ${total} findings: ${JSON.stringify(byRuleFound)}`);
}

if (broken > 0) {
  console.error(`\n${broken} outputs changed bytes outside reported spans or stopped being JSON`);
  process.exitCode = 1;
}
