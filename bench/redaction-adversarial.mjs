#!/usr/bin/env node
// Hostile input: what a caller can make the secret scanner spend (issue 29
// point 4). Every body is scanned, so a body crafted to make the rules work
// hard is a CPU denial of service for anyone with a token. For every keyword
// of every rule (read from the rule table the engine is built from, not a
// hand list) and for the generic shapes (context words, operators, XML
// elements, flags, URL userinfo, PEM armour, base64/hex/dotted runs, runs of
// one character, JSON string escapes), a body of the pattern repeated is
// built inside a Messages request and scanned; the CPU time gives MB/s per
// pattern, worst first. Thousands of patterns are screened at --screen KiB
// (16: the cost per byte is what is compared); the worst are then scanned
// at --kib (256), 1 and 4 MiB to check that the cost per MiB stays flat.
//
//   npm run build && node bench/redaction-adversarial.mjs [--json] [--screen 16] [--kib 256] [--top 15] [--only TEXT]
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.REDACTION_DIST_ROOT ?? resolve(root, 'dist');
const { RULES } = await import(pathToFileURL(resolve(dist, 'redaction/index.js')).href);
const { Redactor } = await import(pathToFileURL(resolve(dist, 'redaction/redactor.js')).href);

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const KIB = Number(arg('--kib', '256'));
const SCREEN = Number(arg('--screen', '16'));
const TOP = Number(arg('--top', '15'));
const ONLY = arg('--only', null);
const GOAL = 5; // MB/s, the budget of the bench row

const redactor = new Redactor(RULES);
const clock = () => performance.now();

let seed = 0xadd5;
const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const pick = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEX = '0123456789abcdef';

/** A pattern is a unit repeated, or a function that makes `bytes` characters of content. */
function patterns() {
  const out = new Map();
  const add = (name, unit) => {
    if (!out.has(name)) out.set(name, unit);
  };
  // Every rule keyword, alone and with the beginnings of an assignment.
  const keywords = new Set();
  for (const rule of RULES) for (const k of rule.keywords) keywords.add(k);
  for (const k of keywords) {
    add(`kw ${JSON.stringify(k)}`, k);
    add(`kw ${JSON.stringify(k)} + space`, `${k} `);
    add(`kw ${JSON.stringify(k)} + '='`, `${k}=`);
    add(`kw ${JSON.stringify(k)} + ': "'`, `${k}: "`);
    add(`kw ${JSON.stringify(k)} + '=' + partial value`, `${k}=a1B2c3D4`);
    add(`kw ${JSON.stringify(k)} + token tail`, `${k}${'A1b2C3d4E5'.repeat(2)} `);
  }
  // Generic shapes.
  const words = ['key', 'token', 'secret', 'password', 'passwd', 'pwd', 'auth', 'api_key', 'apikey', 'access_token', 'credential', 'client_secret', 'bearer', 'Authorization'];
  const ops = ['=', ':', ': "', '="', "='", ' = ', ':=', '=>', '": "', '\\": \\"'];
  for (const w of words) {
    for (const op of ops) {
      add(`word ${JSON.stringify(w)} + ${JSON.stringify(op)}`, `${w}${op}`);
      add(`word ${JSON.stringify(w)} + ${JSON.stringify(op)} + partial`, `${w}${op}x9Kq2`);
    }
    add(`word ${JSON.stringify(w)} + '=' + long value`, `${w}=${pick(B64, 40)}\n`);
    add(`xml <${w}>`, `<${w}>`);
    add(`xml <${w}>{partial`, `<${w}>{AQAAABAAAA`);
    add(`xml <${w}>value</${w}>`, `<${w}>${pick(B64, 12)}</${w}>`);
    add(`flag --${w}`, `--${w} `);
    add(`flag --${w}=`, `--${w}=`);
    add(`flag -${w} value`, `-${w} ${pick(B64, 10)} `);
    add(`env ${w.toUpperCase()}=`, `${w.toUpperCase()}=`);
  }
  for (const op of ops) add(`operator ${JSON.stringify(op)} alone`, op);
  add('url ://a:', '://a:');
  add('url https://a:b@', 'https://a:b@');
  add('url ://', '://');
  add('url user:pass@host', 'u:p@h.');
  add('pem BEGIN PRIVATE KEY line', '-----BEGIN PRIVATE KEY-----\n');
  add('pem BEGIN RSA PRIVATE KEY + body', `-----BEGIN RSA PRIVATE KEY-----\n${pick(B64, 64)}\n`);
  add('pem -----BEGIN ', '-----BEGIN ');
  add('pem -----', '-----');
  add('pem END line', '-----END PRIVATE KEY-----\n');
  add('jwt-like dotted eyJ', 'eyJhbGciOiJIUzI1NiJ9.');
  add('jwt-like a.b.', 'a.b.');
  add('jwt-like eyJ.eyJ.sig ', `eyJ${pick(B64, 20)}.eyJ${pick(B64, 20)}.${pick(B64, 20)} `);
  add('dotted run x.', 'x.');
  add('escaped quote \\"', '\\"');
  add('escaped backslash \\\\', '\\\\');
  add('quote "', '"');
  add('backslash-quote-key', '\\"key\\":\\"');
  add('nested escapes key', '\\\\\\"token\\\\\\"=\\\\\\"');
  add('escaped newline \\n', '\\n');
  add('newline', '\n');
  add('mixed ASCII punctuation', '=:"\'`<>{}[]()-_./+ ');
  for (const ch of ['a', 'A', '0', '=', ' ', '"', '\\', '-', '/', '+', '.', '_', ':', 'x', 'Z', '\t']) add(`run of ${JSON.stringify(ch)}`, ch);
  // One long run each (a function: the body is one run, not a unit repeated).
  add('base64 run', (n) => pick(B64, n));
  add('base64url run', (n) => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', n));
  add('hex run', (n) => pick(HEX, n));
  add('HEX run', (n) => pick(HEX.toUpperCase(), n));
  add('alnum run', (n) => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', n));
  add('base64 lines of 76', (n) =>
    Array.from({ length: Math.ceil(n / 77) }, () => pick(B64, 76))
      .join('\n')
      .slice(0, n),
  );
  return out;
}

function content(unit, chars) {
  if (typeof unit === 'function') return unit(chars);
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

function body(unit, bytes) {
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: content(unit, bytes) }] }));
}

function measure(input, runs = 1) {
  let best = Infinity;
  let work = 0;
  for (let k = 0; k < runs; k++) {
    const c = process.cpuUsage();
    redactor.redactJsonBody(input, Infinity, clock);
    const u = process.cpuUsage(c);
    best = Math.min(best, (u.user + u.system) / 1000);
    work = redactor.lastWork;
  }
  return { cpuMs: best, mbps: input.length / 1e6 / (Math.max(best, 0.001) / 1000), workPerByte: work / input.length };
}

// Warm the engine so that the first pattern does not pay for compilation.
for (let k = 0; k < 3; k++) redactor.redactJsonBody(body('warm up key=value ', 256 << 10), Infinity, clock);

const all = patterns();
const rows = [];
for (const [name, unit] of all) {
  if (ONLY !== null && !name.includes(ONLY)) continue;
  const input = body(unit, SCREEN << 10);
  try {
    rows.push({ name, bytes: input.length, ...measure(input) });
  } catch (err) {
    // A scan that throws fails the request: worse than slow, so it is listed first.
    rows.push({ name, bytes: input.length, cpuMs: Infinity, mbps: 0, workPerByte: NaN, error: String(err?.message ?? err) });
  }
}
rows.sort((a, b) => a.mbps - b.mbps);
// The worst again, more carefully (best of 3), and at 1 and 4 MiB for the growth.
const errors = rows.filter((r) => r.error !== undefined).map((r) => ({ name: r.name, error: r.error }));
const worst = rows
  .filter((r) => r.error === undefined)
  .slice(0, TOP)
  .map((r) => {
    const unit = all.get(r.name);
    const at = (kib, runs) => measure(body(unit, kib << 10), runs);
    let small, one, four;
    try {
      small = at(KIB, 3);
      one = at(1024, 2);
      four = at(4096, 1);
    } catch (err) {
      // Deeper nesting at a larger size can make a scan throw that passed the screen.
      errors.push({ name: r.name, error: String(err?.message ?? err) });
      return null;
    }
    return {
      name: r.name,
      mbps: small.mbps,
      cpuMsPerMiB: { [KIB]: (small.cpuMs * 1024) / KIB, 1024: one.cpuMs, 4096: four.cpuMs / 4 },
      growth: four.cpuMs / 4 / Math.max((small.cpuMs * 1024) / KIB, 0.001),
      workPerByte: four.workPerByte,
    };
  })
  .filter((w) => w !== null);
const result = {
  kib: KIB,
  screenKib: SCREEN,
  patterns: rows.length,
  belowGoal: rows.filter((r) => r.mbps < GOAL).length,
  errors,
  worstMBps: errors.length > 0 ? 0 : Math.min(...worst.map((w) => w.mbps)),
  worstGrowth: Math.max(...worst.map((w) => w.growth)),
  worst,
};

if (process.argv.includes('--json')) console.log(JSON.stringify(result));
else {
  console.log(`${rows.length} patterns screened at ${SCREEN} KiB; ${result.belowGoal} below ${GOAL} MB/s there\n`);
  for (const e of errors) console.log(`THREW: ${e.name}: ${e.error}`);
  console.log(`| pattern (worst first) | MB/s at ${KIB} KiB | CPU ms per MiB at ${KIB} KiB / 1 MiB / 4 MiB | growth 4 MiB vs ${KIB} KiB | work per byte |`);
  console.log('|---|---|---|---|---|');
  for (const w of worst) {
    const c = w.cpuMsPerMiB;
    console.log(
      `| ${w.name.replace(/\|/g, '\\|')} | ${w.mbps.toFixed(1)} | ${c[KIB].toFixed(0)} / ${c[1024].toFixed(0)} / ${c[4096].toFixed(0)} | ${w.growth.toFixed(2)}× | ${w.workPerByte.toFixed(1)} |`,
    );
  }
}
