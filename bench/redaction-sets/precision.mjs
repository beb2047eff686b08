// The precision set: real, secret-free content of the kinds callers send
// (bench/redaction-sets/precision/SOURCES.md). Every line the redactor
// changes is a false positive; lockfile integrity hashes, image digests and
// git SHAs must all come through unchanged.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const corpus = join(here, 'precision/corpus');
// Written on this project's machine, not copied (see SOURCES.md).
const ciLogs = join(here, 'precision/ci-logs');

/** The Go part of the set: spf13/cobra (Apache-2.0), every .go file of one release. */
const GO_SOURCE = { kind: 'go-cobra', module: 'github.com/spf13/cobra', version: 'v1.10.1' };

/** The module's source directory in Go's module cache, downloaded through the proxy if needed; null when it cannot be. */
function goModuleDir(module, version) {
  const r = spawnSync('go', ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', timeout: 120_000, cwd: here });
  if (r.status !== 0) return null;
  try {
    return JSON.parse(r.stdout).Dir ?? null;
  } catch {
    return null;
  }
}

function walk(dir, out = []) {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

// UUIDs as logs and manifests carry them: version 4, drawn from a fixed seed
// (sha256 chain) so every run scores the same lines.
function uuidLines(n) {
  const lines = [];
  let h = Buffer.from('precision-set');
  for (let i = 0; i < n; i++) {
    h = createHash('sha256').update(h).digest();
    const x = Buffer.from(h.subarray(0, 16));
    x[6] = (x[6] & 0x0f) | 0x40;
    x[8] = (x[8] & 0x3f) | 0x80;
    const s = x.toString('hex');
    const id = `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    lines.push([`request_id=${id} status=200`, `  uid: ${id}`, `"traceId": "${id.replace(/-/g, '')}",`, `correlation-id: ${id.toUpperCase()}`][i % 4]);
  }
  return lines.join('\n') + '\n';
}

/** [{kind, name, text}] — every document of the set. */
export function precisionDocuments() {
  const docs = [];
  for (const p of [...walk(corpus), ...walk(ciLogs)]) {
    const name = relative(p.startsWith(ciLogs) ? here : corpus, p);
    const kind = p.startsWith(ciLogs) ? 'ci logs' : name.split('/')[0].replace(/\.txt$/, '');
    if (p.endsWith('.png')) {
      // An image pasted as a data URI (markdown and HTML), the base64 on one line and wrapped at 76.
      const b64 = readFileSync(p).toString('base64');
      const wrapped = b64.replace(/(.{76})/g, '$1\n');
      docs.push({ kind: 'base64 images', name, text: `![icon](data:image/png;base64,${b64})\n<img src="data:image/png;base64,${b64}">\n${wrapped}\n` });
      continue;
    }
    const text = readFileSync(p, 'utf8');
    // A Secret manifest's data are credentials (examples here): reported apart.
    docs.push({ kind: /^kind:[ \t]*Secret[ \t]*$/m.test(text) ? 'k8s Secret manifests (example credentials)' : kind, name, text });
  }
  // Go source, fetched at bench time through the Go module proxy (not kept in this tree): a pinned release, so every
  // run scores the same files. A machine without Go or the proxy reports the document as missing.
  const go = goModuleDir(GO_SOURCE.module, GO_SOURCE.version);
  if (go === null) docs.push({ kind: GO_SOURCE.kind, name: `${GO_SOURCE.module}@${GO_SOURCE.version}`, text: null });
  else for (const p of walk(go).filter((f) => f.endsWith('.go'))) docs.push({ kind: GO_SOURCE.kind, name: join(GO_SOURCE.kind, relative(go, p)), text: readFileSync(p, 'utf8') });
  // Content already in this project's tree: its npm lockfile and minified
  // bundles of its dependencies (MIT / BSD licensed, installed by npm ci).
  docs.push({ kind: 'lockfile-npm', name: 'package-lock.json', text: readFileSync(join(root, 'package-lock.json'), 'utf8') });
  for (const m of ['js-yaml/dist/js-yaml.min.js', 'esquery/dist/esquery.min.js', 'protobufjs/dist/protobuf.min.js']) {
    const p = join(root, 'node_modules', m);
    try {
      docs.push({ kind: 'minified js', name: m, text: readFileSync(p, 'utf8') });
    } catch {
      // A dependency that moved its bundle: reported as a missing document below.
      docs.push({ kind: 'minified js', name: m, text: null });
    }
  }
  docs.push({ kind: 'uuids', name: 'uuids (seeded)', text: uuidLines(2000) });
  return docs;
}

const PROTECTED = [
  ['integrity hashes', /sha(?:1|256|384|512)-[A-Za-z0-9+/]{27,86}={0,2}/g],
  ['digests', /sha256:[0-9a-f]{64}/g],
  ['git SHAs', /(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])/g],
];

const toolResult = (t) =>
  Buffer.from(
    JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'file' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: t }] },
      ],
    }),
  );

/**
 * Sends each document as a tool_result (an agent reading a file) and counts
 * the lines whose text changed, by kind, and the protected values that did
 * not come through.
 */
export function scorePrecision(redactJsonBody) {
  const byKind = new Map();
  const protectedCounts = Object.fromEntries(PROTECTED.map(([k]) => [k, { kept: 0, n: 0 }]));
  const changed = [];
  const missing = [];
  for (const d of precisionDocuments()) {
    if (d.text === null) {
      missing.push(d.name);
      continue;
    }
    const out = redactJsonBody(toolResult(d.text));
    const after = JSON.parse(out.body.toString('utf8')).messages[1].content[0].content;
    const a = d.text.split('\n');
    const b = after.split('\n');
    const t = byKind.get(d.kind) ?? { lines: 0, changed: 0, bytes: 0 };
    t.lines += a.length;
    t.bytes += Buffer.byteLength(d.text);
    if (out.findings.length > 0) {
      // Placeholders never add or remove line breaks, so lines pair up.
      for (let i = 0; i < a.length; i++) {
        if (a[i] !== b[i]) {
          t.changed++;
          changed.push({ name: d.name, line: i + 1, rules: out.findings.map((f) => f.ruleId) });
        }
      }
    }
    byKind.set(d.kind, t);
    for (const [k, re] of PROTECTED) {
      for (const m of d.text.matchAll(re)) {
        protectedCounts[k].n++;
        if (after.includes(m[0])) protectedCounts[k].kept++;
      }
    }
  }
  return { byKind, protectedCounts, changed, missing };
}
