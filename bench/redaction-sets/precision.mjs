// The precision set: real, secret-free content of the kinds callers send
// (bench/redaction-sets/precision/SOURCES.md). Every line the redactor
// changes is a false positive; lockfile integrity hashes, image digests and
// git SHAs must all come through unchanged.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { crates, goModule, npmPackage, pypiWheel } from './precision-sources.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
// Written on this project's machine, not copied (see SOURCES.md).
const ciLogs = join(here, 'precision/ci-logs');

const PROMETHEUS = { module: 'github.com/prometheus/prometheus', version: 'v0.316.0' };
const KUBERNETES = { module: 'k8s.io/kubernetes', version: 'v1.34.4' };
// The commit of this repository whose log and tree are scored: pinned, so new commits do not change the set.
const GIT_COMMIT = '8e021ea2118241d68435bc62225d287498e21138';
const GIT_KIND = 'git log and ls-tree';
const GIT_LINES = 339 + 1271;

/**
 * The fetched parts: each names where it comes from (SOURCES.md), how it is
 * fetched, which of its files are scored and how many lines they hold (the
 * versions are pinned, so a different count means the content is not what
 * was measured, and the bench says so).
 */
export const PARTS = [
  {
    kind: 'python-requests',
    from: 'requests 2.32.5 (PyPI wheel)',
    lines: 5641,
    licence: ['package/requests-2.32.5.dist-info/licenses/LICENSE'],
    fetch: () => pypiWheel('requests', '2.32.5', '2462f94637a34fd532264295e186976db0f5d453d1cdd31473c85a6a161affb6'),
    take: (f) => /^package\/requests\/[^/]+\.py$/.test(f),
  },
  {
    kind: 'go-cobra',
    from: 'github.com/spf13/cobra v1.10.1 (Go module proxy)',
    lines: 16692,
    licence: ['LICENSE.txt'],
    fetch: () => goModule('github.com/spf13/cobra', 'v1.10.1'),
    take: (f) => f.endsWith('.go'),
  },
  {
    kind: 'js-express',
    from: 'express 5.1.0 (npm)',
    lines: 2758,
    licence: ['package/LICENSE'],
    fetch: () => npmPackage('express', '5.1.0', 'sha512-DT9ck5YIRU+8GYzzU5kT3eHGA5iL+1Zd0EutOmTE9Dtk+Tvuzd23VBU+ec7HPNSTxXYO55gPV/hq4pSBJDjFpA=='),
    take: (f) => f.endsWith('.js'),
  },
  {
    kind: 'js-fastify',
    from: 'fastify 5.6.1 (npm)',
    lines: 16351,
    licence: ['package/LICENSE'],
    fetch: () => npmPackage('fastify', '5.6.1', 'sha512-WjjlOciBF0K8pDUPZoGPhqhKrQJ02I8DKaDIfO51EL0kbSMwQFl85cRwhOvmSDWoukNOdTo27gLN549pLCcH7Q=='),
    // The framework and its internals tests, about as much JavaScript as the set held before.
    take: (f) => /^package\/(fastify\.js|lib\/.*\.js|test\/internals\/.*\.js)$/.test(f),
  },
  {
    kind: 'rust-serde',
    from: 'serde, serde_core, serde_derive 1.0.228 (cargo)',
    lines: 26245,
    licence: ['serde/LICENSE-MIT', 'serde/LICENSE-APACHE', 'serde_core/LICENSE-MIT', 'serde_core/LICENSE-APACHE', 'serde_derive/LICENSE-MIT', 'serde_derive/LICENSE-APACHE'],
    fetch: () => {
      const r = crates([
        { name: 'serde', version: '1.0.228', sha256: '9a8e94ea7f378bd32cbbd37198a4a91436180c5bb472411e48b5ec2e2124ae9e' },
        { name: 'serde_core', version: '1.0.228', sha256: '41d385c7d4ca58e59fc732af25c3983b67ac852c1a25000afe1175de458b67ad' },
        { name: 'serde_derive', version: '1.0.228', sha256: 'd540f220d3187173da220f885ab66608367b6574e925011a9353e4badda91d79' },
      ]);
      return r.error ? r : { dirs: r.dirs };
    },
    // serde's src/core is a copy of serde_core's source (one file in the repository), scored once.
    take: (f) => /^serde(_core|_derive)?\/src\/.*\.rs$/.test(f) && !f.startsWith('serde/src/core/'),
  },
  {
    kind: 'k8s-manifests',
    from: `${KUBERNETES.module} ${KUBERNETES.version} (Go module proxy)`,
    lines: 8946,
    licence: ['LICENSE'],
    fetch: () => goModule(KUBERNETES.module, KUBERNETES.version),
    // The example and test manifests (the e2e suite's, the fixtures, kubectl's test data).
    take: (f) => /^(test\/e2e\/testing-manifests|test\/fixtures|hack\/testdata)\/.*\.ya?ml$/.test(f),
  },
  {
    kind: 'lockfile-pnpm',
    from: `${PROMETHEUS.module} ${PROMETHEUS.version} (Go module proxy)`,
    lines: 13763,
    licence: ['LICENSE', 'NOTICE'],
    fetch: () => goModule(PROMETHEUS.module, PROMETHEUS.version),
    take: (f) => f === 'web/ui/react-app/pnpm-lock.yaml',
  },
  {
    kind: 'digests and pinned actions',
    from: `${PROMETHEUS.module} ${PROMETHEUS.version} (Go module proxy)`,
    lines: 6070,
    licence: ['LICENSE', 'NOTICE'],
    fetch: () => goModule(PROMETHEUS.module, PROMETHEUS.version),
    // CI workflows pinning each action by commit SHA, Dockerfiles, and Docker API answers naming images by digest.
    take: (f) => /^(\.github\/workflows\/.*\.ya?ml|Dockerfile[^/]*|discovery\/moby\/testdata\/.*)$/.test(f),
  },
  {
    kind: 'base64 images',
    from: `${PROMETHEUS.module} ${PROMETHEUS.version} (Go module proxy)`,
    lines: 258,
    licence: ['LICENSE', 'NOTICE'],
    fetch: () => goModule(PROMETHEUS.module, PROMETHEUS.version),
    take: (f) => f === 'docs/images/remote_integrations.png',
  },
  {
    kind: 'base64 images',
    from: `${KUBERNETES.module} ${KUBERNETES.version} (Go module proxy)`,
    lines: 445,
    licence: ['LICENSE'],
    fetch: () => goModule(KUBERNETES.module, KUBERNETES.version),
    take: (f) => f === 'logo/name_blue.png',
  },
];

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

const walked = new Map();
/** Files under dir, relative to it, sorted; walked once per run (the Kubernetes module has 20,000 files). */
function filesOf(dir) {
  if (!walked.has(dir))
    walked.set(
      dir,
      walk(dir).map((p) => relative(dir, p)),
    );
  return walked.get(dir);
}

const fetched = new Map();
/** A part's fetch, once per run: parts read from the same module share it. */
function fetchOnce(part) {
  const key = part.from;
  if (!fetched.has(key)) fetched.set(key, part.fetch());
  return fetched.get(key);
}

// An image pasted as a data URI (markdown and HTML), the base64 on one line and wrapped at 76.
function imageText(bytes) {
  const b64 = bytes.toString('base64');
  return `![icon](data:image/png;base64,${b64})\n<img src="data:image/png;base64,${b64}">\n${b64.replace(/(.{76})/g, '$1\n')}\n`;
}

// A Secret manifest's data are credentials (examples here): reported apart.
const kindOf = (kind, text) => (/^kind:[ \t]*Secret[ \t]*$/m.test(text) ? 'k8s Secret manifests (example credentials)' : kind);

/**
 * Every document of the set: [{kind, name, text}], the parts that could not
 * be had: [{kind, from, reason}] (scored without them, and said so), and
 * where each fetched part's licence is read: [{kind, from, files}].
 */
export function precisionDocuments() {
  const docs = [];
  const missing = [];
  const licences = [];
  for (const part of PARTS) {
    const r = fetchOnce(part);
    if (r.error) {
      missing.push({ kind: part.kind, from: part.from, reason: r.error });
      continue;
    }
    const roots = r.dirs ?? { '': r.dir };
    // The licence is read from the fetched package itself (no copy is kept in this tree).
    const at = (f) => (r.dirs ? join(r.dirs[f.split('/')[0]], f.slice(f.indexOf('/') + 1)) : join(r.dir, f));
    const absent = part.licence.filter((f) => !existsSync(at(f)));
    if (absent.length > 0) {
      missing.push({ kind: part.kind, from: part.from, reason: `its licence file ${absent.join(', ')} is not in the fetched package` });
      continue;
    }
    licences.push({ kind: part.kind, from: part.from, files: part.licence, firstLine: readFileSync(at(part.licence[0]), 'utf8').trim().split('\n')[0].trim() });
    let n = 0;
    for (const [label, dir] of Object.entries(roots)) {
      for (const f of filesOf(dir)) {
        const name = label ? `${label}/${f}` : f;
        if (!part.take(name)) continue;
        n++;
        const bytes = readFileSync(join(dir, f));
        const text = f.endsWith('.png') ? imageText(bytes) : bytes.toString('utf8');
        docs.push({ kind: kindOf(part.kind, text), part: part.kind, name: `${part.from.split(' (')[0]}: ${name}`, text });
      }
    }
    if (n === 0) missing.push({ kind: part.kind, from: part.from, reason: 'fetched, but none of the files it should hold is there' });
  }
  // git SHAs as tools print them: a log line per commit and a tree listing, of this repository at a pinned commit.
  for (const [what, args] of [
    ['git log', ['log', '-n', '400', '--format=%H %h %an %ad %s', '--date=iso', GIT_COMMIT]],
    ['git ls-tree', ['ls-tree', '-r', GIT_COMMIT]],
  ]) {
    const r = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (r.status === 0 && r.stdout) docs.push({ kind: GIT_KIND, part: GIT_KIND, name: `${what} ${GIT_COMMIT.slice(0, 12)}`, text: r.stdout });
    else
      missing.push({
        kind: GIT_KIND,
        from: `${what} of this repository at ${GIT_COMMIT}`,
        reason: r.error ? `git: ${r.error.message}` : `git exited ${r.status}: ${(r.stderr || '').trim().split('\n')[0]} (a shallow clone lacks the commit)`,
      });
  }
  for (const p of walk(ciLogs)) docs.push({ kind: 'ci logs', part: 'ci logs', name: relative(here, p), text: readFileSync(p, 'utf8') });
  // Content already in this project's tree: its npm lockfile and minified
  // bundles of its dependencies (MIT / BSD licensed, installed by npm ci).
  docs.push({ kind: 'lockfile-npm', part: 'lockfile-npm', name: 'package-lock.json', text: readFileSync(join(root, 'package-lock.json'), 'utf8') });
  for (const m of ['js-yaml/dist/js-yaml.min.js', 'esquery/dist/esquery.min.js', 'protobufjs/dist/protobuf.min.js']) {
    try {
      docs.push({ kind: 'minified js', part: 'minified js', name: m, text: readFileSync(join(root, 'node_modules', m), 'utf8') });
    } catch (err) {
      missing.push({ kind: 'minified js', from: `node_modules/${m}`, reason: `${err.code ?? err.message} (npm ci not run, or the dependency moved its bundle)` });
    }
  }
  docs.push({ kind: 'uuids', part: 'uuids', name: 'uuids (seeded)', text: uuidLines(2000) });
  return { docs, missing, licences };
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
 * not come through; lists the parts that are missing (and why) or whose line
 * count is not the pinned one.
 */
export function scorePrecision(redactJsonBody) {
  const byKind = new Map();
  const protectedCounts = Object.fromEntries(PROTECTED.map(([k]) => [k, { kept: 0, n: 0 }]));
  const changed = [];
  const { docs, missing, licences } = precisionDocuments();
  const partLines = new Map();
  for (const d of docs) {
    partLines.set(d.part, (partLines.get(d.part) ?? 0) + d.text.split('\n').length);
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
  // A fetched part whose line count is not the one measured: another version or a partial fetch.
  const expected = new Map();
  for (const p of [...PARTS, { kind: GIT_KIND, lines: GIT_LINES }]) expected.set(p.kind, (expected.get(p.kind) ?? 0) + p.lines);
  const unexpected = [];
  for (const [kind, lines] of expected) {
    const got = partLines.get(kind) ?? 0;
    if (got !== lines && !missing.some((m) => m.kind === kind)) unexpected.push({ kind, lines: got, expected: lines });
  }
  return { byKind, partLines, protectedCounts, changed, missing, unexpected, licences };
}
