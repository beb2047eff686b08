// Every budget `make bench` judges, declared once: what it measures, its limit
// and direction, its unit. The report and the cases take a budget from here
// (`budget(key, measured, extra)`); the target text and the verdict are derived
// from the limit, so a budget cannot say one number and judge another.
// test/unit/bench/budgets.test.ts checks the table and that every key is used.

/**
 * atMost / atLeast: the limit (a list: one limit per measured value, all must hold).
 * target: only for budgets whose verdict is not a single comparison (text, judged by their case).
 * shown: how the limit is written when the number alone would mislead (2/3 as "0.67×").
 */
export const BUDGETS = Object.freeze({
  's1-p50': { what: 'gw serve added latency, non-streaming, 500 req/s: p50', atMost: 0.3, unit: 'ms' },
  's1-floor': { what: 'gw serve non-streaming added p50 over the bare Node proxy floor (same rounds)', atMost: 0.1, unit: 'ms' },
  's1-p99': { what: 'gw serve added latency, non-streaming, 500 req/s: p99', atMost: 1, unit: 'ms' },
  'serve-cpu-request': {
    what: 'gw serve CPU per non-streaming request against the bare Node proxy (500 req/s, same rounds; issue 26 point 2)',
    atMost: 1.3,
    unit: '×',
    shown: '≤ 1.3× and ≤ 0.25 ms added',
  },
  'serve-cpu-stream': {
    what: 'gw serve CPU per stream at 32 concurrent streams against the bare Node proxy (same rounds; issue 26 point 2)',
    atMost: 1.3,
    unit: '×',
    shown: '≤ 1.3× and ≤ 0.25 ms added',
  },
  'serve-vs-baseline': {
    what: 'gw serve CPU per stream at 32 concurrent streams against main at 11bec4b (same rounds; issue 26 point 1)',
    atMost: 1,
    unit: '×',
    shown: '≤ 1.0× (at or below 11bec4b)',
  },
  ttfb: { what: 'gw serve streaming: added time to first byte (p50)', atMost: 1, unit: 'ms' },
  'event-delay': { what: 'gw serve streaming: added delay per event (p50; p99 alongside)', atMost: 0.3, unit: 'ms' },
  'vs-portkey': { what: 'throughput at 32 concurrent streams vs Portkey (same run)', atLeast: 3, unit: '×' },
  'vs-direct': { what: 'throughput at 32 concurrent streams vs direct (same run)', atLeast: 0.9, unit: '×' },
  'vs-litellm': { what: 'throughput at 32 concurrent streams vs LiteLLM (same run)', atLeast: 50, unit: '×' },
  'extproc-chunk-abs': { what: 'ext_proc: answer latency per response body chunk, p99 (1 stream at a time)', atMost: 0.3, unit: 'ms' },
  'extproc-chunk-floor': { what: 'ext_proc: chunk answer p99 against the grpc-js floor (1 stream)', atMost: 1.5, unit: '×', shown: '≤ 1.5× floor' },
  'extproc-cpu': { what: 'ext_proc: CPU per exchange against the baseline (1 stream)', atMost: 2 / 3, unit: '×', shown: '≤ 0.67× (cut by a third)' },
  'extproc-observe-cpu': {
    what: "ext_proc: CPU per streamed exchange with the observing filter (`--observe-response-body`) against today's (16 streams, same run)",
    atMost: 0.5,
    unit: '×',
    shown: '≤ 0.5× (halved)',
  },
  'extproc-request-phase': { what: 'ext_proc: request-phase p50 against the baseline (1 stream)', atMost: 2 / 3, unit: '×', shown: '≤ 0.67× (cut by a third)' },
  'rss-idle-extproc': { what: 'gw extproc RSS idle (a fresh process, 2 s after start)', atMost: 100, unit: 'MB' },
  'rss-streams': { what: 'memory with 1,000 concurrent streams (peak RSS of gw serve)', atMost: 150, unit: 'MB', shown: '≤ 150 MB at 1,000 open streams' },
  'rss-idle-serve': { what: 'gw serve RSS idle (a fresh process, before any request)', atMost: 100, unit: 'MB' },
  'rss-after-load-serve': { what: 'gw serve RSS 10 s after its last request (after the s6 streams: memory that goes back down)', atMost: 100, unit: 'MB' },
  'rss-after-load-extproc': { what: 'gw extproc RSS 10 s after a warm-up of a few thousand exchanges (memory that goes back down)', atMost: 100, unit: 'MB' },
  redaction: { what: 'redaction of a 1 MiB body, no credentials / 100 credentials (bench/redaction-throughput.mjs)', atLeast: [50, 20], unit: 'MB/s' },
  'redaction-linear': { what: 'redaction: CPU per MiB at 16 MiB vs 1 MiB (linear growth)', atMost: 1.5, unit: '×' },
  'redaction-adversarial': { what: 'redaction: worst hostile pattern (every rule keyword, generic shapes; bench/redaction-adversarial.mjs)', atLeast: 5, unit: 'MB/s' },
  'redaction-adversarial-linear': { what: 'redaction: hostile patterns, CPU per MiB at 4 MiB vs 256 KiB (worst of the slowest)', atMost: 1.5, unit: '×' },
  'redaction-stall': { what: 'redaction: event-loop stall while a 12 MiB body is scanned', below: 50, unit: 'ms' },
  'redaction-heldout': { what: 'redaction: recall on widely-used services, projects held out', atLeast: 95, unit: '%' },
  'redaction-precision': { what: 'redaction: lines of real content changed (precision set)', atMost: 0.1, unit: '%' },
  'redaction-protected': { what: 'redaction: integrity hashes, digests and git SHAs changed', atMost: 0, unit: 'changed', shown: '0' },
  revocation: { what: 'revocation to first 401', target: '0 stale requests; ≤ 1 s via the operator' },
  'soak-flat': { what: 'gw serve RSS flat after 1,000,000 requests (slope of the second half)', target: '≤ 1 MB RSS and ≤ 0.5 MB heap per 100k requests' },
  'hostile-soak': { what: 'hostile soak: every answer the documented one, no 5xx, credential healthy, a well-behaved caller served', target: '0 unexpected, 0 5xx' },
  'usage-export': { what: 'usage exporter throughput', atLeast: 20_000, unit: 'records/s' },
  'usage-export-cpu': { what: "usage exporter CPU per 1,000 records: exporter process, PostgreSQL and Redis (the bench probe's own writes not counted)", atMost: 50, unit: 'ms' },
  'operator-rebuild': { what: 'operator: Redis flushed to all tokens back (s14)', atMost: 5_000, unit: 'ms', shown: '≤ 5,000 ms' },
  'operator-cold-start': { what: 'operator: start to all tokens in Redis (s14)', atMost: 2_000, unit: 'ms', shown: '≤ 2,000 ms after the informers listed' },
  'console-usage': { what: 'owner console: a month of Usage by day, 1,000,000 records of one company, worst grouping (median server time)', atMost: 300, unit: 'ms' },
  'console-logs': { what: 'owner console: a Logs page of 50, first or deep (keyset), 1,000,000 records (worst median server time)', atMost: 200, unit: 'ms' },
  'console-usage-screen': { what: 'owner console: a month of Usage by day on screen in Chromium after navigation, 1,000,000 records, worst grouping (median)', atMost: 1000, unit: 'ms' },
  'console-logs-screen': { what: 'owner console: the first Logs page of 50 on screen in Chromium after navigation, 1,000,000 records (median)', atMost: 1000, unit: 'ms' },
  'console-assets': { what: 'owner console: all JavaScript and CSS shipped, gzipped', atMost: 150, unit: 'KB' },
  'operator-throughput': { what: 'operator throughput: a burst of token creates into Redis (s14)', target: 'reported (issue 18: in the same report)' },
});

const list = (v) => (Array.isArray(v) ? v : [v]);
const num = (v) => (Number.isInteger(v) ? v.toLocaleString('en-US') : String(v));

/** The target as the report prints it, from the limit. */
export function targetText(key) {
  const b = BUDGETS[key];
  if (!b) throw new Error(`bench budget "${key}" is not declared in bench/budgets.mjs`);
  if (b.target) return b.target;
  if (b.shown) return b.shown;
  const [sign, limits] = b.atMost !== undefined ? ['≤', b.atMost] : b.atLeast !== undefined ? ['≥', b.atLeast] : ['<', b.below];
  const unit = b.unit === '×' ? '×' : ` ${b.unit}`;
  return `${list(limits)
    .map((l) => `${sign} ${num(l)}`)
    .join(' / ')}${unit}`;
}

/** Whether `measured` (a number, or one per limit) meets the budget; null when there is nothing to judge. */
export function meets(key, measured) {
  const b = BUDGETS[key];
  if (!b) throw new Error(`bench budget "${key}" is not declared in bench/budgets.mjs`);
  if (b.target) throw new Error(`bench budget "${key}" is judged by its case (its target is text): pass ok explicitly`);
  const values = list(measured);
  if (values.some((v) => v === null || v === undefined || Number.isNaN(v))) return null;
  const limits = list(b.atMost ?? b.atLeast ?? b.below);
  if (limits.length !== values.length) throw new Error(`bench budget "${key}" takes ${limits.length} value(s), got ${values.length}`);
  return values.every((v, i) => (b.atMost !== undefined ? v <= limits[i] : b.atLeast !== undefined ? v >= limits[i] : v < limits[i]));
}

/**
 * One row of the report's budget table. `extra` adds the texts beside it and may set:
 * `judged: false` (shown, not judged: e.g. a quick run), `also: false` (a condition the
 * limit alone does not say, e.g. no failed stream), `failed: true` (the case itself failed:
 * not met), `ok` (text budgets only), `what` (the declared text with this run's numbers).
 */
export function budget(key, measured, extra = {}) {
  const { judged = true, also = true, failed = false, ok, ...rest } = extra;
  const b = BUDGETS[key];
  if (!b) throw new Error(`bench budget "${key}" is not declared in bench/budgets.mjs`);
  const met = b.target ? null : meets(key, measured);
  const verdict = failed ? false : b.target ? (ok ?? null) : !judged || met === null ? null : met && also;
  return {
    key,
    what: b.what,
    target: targetText(key),
    ...(b.unit ? { unit: b.unit } : {}),
    ...(typeof measured === 'number' || measured === null || measured === undefined ? { measured } : {}),
    ...rest,
    ok: verdict,
  };
}
