#!/usr/bin/env node
// Redaction throughput on a 1 MiB Anthropic request body of source code,
// config and prose (no credentials), and on the same body with 100
// credentials planted in it. Deterministic input; the median of several runs
// is reported because the machine is shared and noisy.
//
//   npm run build && node bench/redaction-throughput.mjs [--runs 21]
import { performance } from 'node:perf_hooks';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.REDACTION_DIST ?? resolve(root, 'dist/redaction/index.js');
const { redactJsonBody, redactText } = await import(dist);
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 21;
const MiB = 1 << 20;

// mulberry32: a small seeded generator, so every run scans the same bytes.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(20240601);
const pick = (list) => list[Math.floor(rand() * list.length)];
const int = (n) => Math.floor(rand() * n);
const chars = (alphabet, n) => Array.from({ length: n }, () => alphabet[int(alphabet.length)]).join('');
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

// Code, config, logs and prose as they show up in coding-agent prompts: dense
// with the words rules key on (token, key, secret, password, auth, Bearer,
// https://) but holding no credential.
const NAMES = ['user', 'order', 'session', 'request', 'config', 'client', 'item', 'account', 'payload', 'result', 'cache', 'router'];
const code = () => {
  const n = pick(NAMES);
  return pick([
    `export async function get${n[0].toUpperCase()}${n.slice(1)}(id: string, token: string): Promise<${n}> {\n  const res = await fetch(\`https://api.example.com/v2/${n}s/\${id}?page=\${page}\`, {\n    headers: { Authorization: \`Bearer \${token}\`, 'content-type': 'application/json' },\n  });\n  if (!res.ok) throw new Error(\`failed to load ${n}: \${res.status}\`);\n  return (await res.json()) as ${n};\n}\n`,
    `def refresh_${n}(self, api_key: str | None = None) -> dict:\n    """Refresh the ${n} using the configured API key."""\n    key = api_key or os.environ.get("SERVICE_API_KEY")\n    if not key:\n        raise ValueError("missing api key for ${n}")\n    resp = self.session.post(f"{self.base_url}/${n}/refresh", headers={"x-api-key": key}, timeout=30)\n    resp.raise_for_status()\n    return resp.json()\n`,
    `func (s *Server) handle${n[0].toUpperCase()}${n.slice(1)}(w http.ResponseWriter, r *http.Request) {\n\ttoken := r.Header.Get("Authorization")\n\tif !strings.HasPrefix(token, "Bearer ") {\n\t\thttp.Error(w, "unauthorized", http.StatusUnauthorized)\n\t\treturn\n\t}\n\tclaims, err := s.verifier.Verify(r.Context(), strings.TrimPrefix(token, "Bearer "))\n\tif err != nil {\n\t\ts.log.Warn("invalid token", "err", err)\n\t\treturn\n\t}\n\t_ = claims\n}\n`,
    `const ${n}Schema = z.object({\n  id: z.string().uuid(),\n  password: z.string().min(12).max(128),\n  secretRef: z.string().optional(),\n  maxTokens: z.number().int().positive().default(${1 + int(8192)}),\n});\n`,
    `  it('rejects an expired ${n} token', async () => {\n    const secret = await loadSecret('${n}-signing-key');\n    const jwt = sign({ sub: '${n}-${int(999)}' }, secret, { expiresIn: -1 });\n    await expect(verify(jwt, secret)).rejects.toThrow('jwt expired');\n  });\n`,
    `    for (let i = 0; i < ${n}s.length; i += 1) {\n      const key = cacheKey(${n}s[i].id, ${int(100)});\n      if (cache.has(key)) continue;\n      cache.set(key, await compute(${n}s[i]));\n    }\n`,
  ]);
};
const config = () =>
  pick([
    `${pick(NAMES)}:\n  enabled: true\n  endpoint: https://${pick(NAMES)}.internal.example.com:${8000 + int(999)}/v1\n  credentials:\n    secretRef:\n      name: ${pick(NAMES)}-credentials\n      key: api-key\n  timeoutSeconds: ${int(120)}\n`,
    `DATABASE_URL=postgres://app@db.internal:5432/${pick(NAMES)}\nREDIS_URL=redis://cache.internal:6379/0\nAPI_KEY=\${API_KEY}\nLOG_LEVEL=info\nMAX_TOKENS=${int(4096)}\n`,
    `{"name": "${pick(NAMES)}-service", "version": "1.${int(20)}.${int(9)}", "dependencies": {"jsonwebtoken": "^9.0.2", "bcrypt": "^5.1.1"}, "scripts": {"test": "vitest run"}}\n`,
  ]);
const log = () =>
  `${new Date(1717200000000 + int(86400000)).toISOString()} INFO request_id=req_${chars(HEX, 24)} path=/v1/${pick(NAMES)}s status=${pick([200, 201, 401, 404])} duration_ms=${int(900)} user_agent="Mozilla/5.0"\n`;
const WORDS =
  'the a service token key request user password secret must should returns when which cache rotate every header before after value config deploy check update client server timeout retry error message response field valid expired session'.split(
    ' ',
  );
const prose = () => {
  const sentence = () => {
    const w = Array.from({ length: 8 + int(14) }, () => pick(WORDS)).join(' ');
    return w[0].toUpperCase() + w.slice(1) + '.';
  };
  return Array.from({ length: 3 + int(4) }, sentence).join(' ') + '\n\n';
};

function text(bytes) {
  let out = '';
  while (out.length < bytes) out += pick([code, code, code, config, log, prose, prose])();
  return out.slice(0, bytes);
}

// Credentials of many families, shaped as the rules expect them.
const credentials = [
  () => `ghp_${chars(B62, 36)}`,
  () => `sk-ant-api03-${chars(B62 + '_-', 93)}AA`,
  () => `AKIA${chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`,
  () => `xoxb-${chars('0123456789', 12)}-${chars('0123456789', 13)}-${chars(B62, 24)}`,
  () => `sk_live_${chars(B62, 99)}`,
  () => `AIzaSy${chars(B62 + '_-', 33)}`,
  () => `glpat-${chars(B62, 20)}`,
  () => `npm_${chars(B62, 36)}`,
  () => `gwct_${chars(B62, 46)}`,
  () => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx${chars(B62, 40)}.${chars(B62 + '_-', 43)}`,
  () => `postgres://app:${chars(B62, 20)}@db.example.com:5432/app`,
  () => `password = "${chars(B62, 14)}!${int(99)}"`,
  () => `api_token: ${chars(B62, 32)}`,
  () => `-----BEGIN RSA PRIVATE KEY-----\n${Array.from({ length: 12 }, () => chars(B62 + '+/', 64)).join('\n')}\n-----END RSA PRIVATE KEY-----`,
];

function plant(source, count) {
  const parts = [];
  const step = Math.floor(source.length / (count + 1));
  let from = 0;
  for (let k = 1; k <= count; k++) {
    let at = k * step;
    at = source.indexOf('\n', at) + 1 || at;
    parts.push(source.slice(from, at), credentials[k % credentials.length](), '\n');
    from = at;
  }
  parts.push(source.slice(from));
  return parts.join('');
}

// The body: a system prompt, a conversation, a tool_use with file contents in
// its input and a tool_result, each carrying a share of the text.
function body(t) {
  // Cut at line ends so that no planted credential is split across strings.
  const cut = (at) => t.indexOf('\n', at) + 1 || at;
  const q = Math.floor(t.length / 4);
  const [a, b, c, d] = [cut(q / 4), cut(q), cut(2 * q), cut(3 * q)];
  return Buffer.from(
    JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: [{ type: 'text', text: t.slice(0, a) }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: t.slice(a, b) }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'I will update the file.' },
            { type: 'tool_use', id: 'toolu_01', name: 'write_file', input: { path: 'src/app.ts', content: t.slice(b, c) } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: t.slice(c, d) }] },
        { role: 'user', content: t.slice(d) },
      ],
    }),
  );
}

function sized(make) {
  // The longest text whose body fits in 1 MiB; `make(n)` builds n characters
  // of it, so planted credentials are never trimmed away.
  let n = MiB;
  let b = body(make(n));
  while (b.length > MiB) {
    n -= b.length - MiB;
    b = body(make(n));
  }
  return b;
}

const cleanText = text(MiB + 65536);
const clean = sized((n) => cleanText.slice(0, n));
const dirty = sized((n) => plant(cleanText.slice(0, n - 12_000), 100));

// Wall time is what a request waits; CPU time (this process, all threads) is
// what the code costs, and is less disturbed when other work shares the cores.
// A fresh process's first scans run before V8 has optimized the scanner (measured:
// the first ~8 scans of a 1 MiB body take 1.3-2.5x the steady state), so the medians
// are taken after WARMUP scans, as a gateway serving traffic runs; the first scan's
// time is printed too, for what the very first request of a process pays.
const WARMUP = 10;
const firstScans = [];
function measure(label, input, fn) {
  const f0 = performance.now();
  fn(input);
  firstScans.push(`${label}: ${(performance.now() - f0).toFixed(1)} ms`);
  for (let i = 1; i < WARMUP; i++) fn(input);
  const wall = [];
  const cpu = [];
  let last;
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = fn(input);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const mbs = (ms) => (input.length / 1e6 / (ms / 1000)).toFixed(0);
  const w = median(wall);
  const c = median(cpu);
  console.log(
    `| ${label} | ${(input.length / MiB).toFixed(2)} MiB | ${w.toFixed(1)} ms | ${mbs(w)} MB/s | ${c.toFixed(1)} ms | ${mbs(c)} MB/s | ${Math.min(...wall).toFixed(1)} ms | ${last.findings.length} | ${last.budgetExhausted} |`,
  );
  return last;
}

console.log(`runs: ${RUNS} after ${WARMUP} warm-up scans, medians reported; full scan, called as the gateway calls it (no budget)\n`);
console.log('| input | size | wall median | wall throughput | CPU median | CPU throughput | fastest run | findings | budget exhausted |');
console.log('|---|---|---|---|---|---|---|---|---|');
const FULL = {};
measure('JSON body, no credentials', clean, (b) => redactJsonBody(b, FULL));
const r = measure('JSON body, 100 credentials', dirty, (b) => redactJsonBody(b, FULL));
const plainClean = Buffer.from(cleanText.slice(0, MiB));
measure('plain text, no credentials', plainClean, (b) => redactText(b, FULL));

const counts = Object.entries(r.countsByRule)
  .sort((a, b) => b[1] - a[1])
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');
console.log(`\nfindings in the body with 100 credentials by rule: ${counts}`);
console.log(`first scan of a fresh process (before V8 optimizes the scanner): ${firstScans.join('; ')}`);
