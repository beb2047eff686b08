// For every budget a run does not meet (or cannot judge), what stands in the way and what was
// tried, written into the report itself beside that run's own figures, with links to the profile
// summaries: this run's (s7) and the committed ones the changes were judged by. The analysis is
// the team's (docs/benchmarks.md, "The budgets: where they stand"); the figures are the run's.

// Committed summaries, relative to bench/results/ (where the report is written).
const COMMITTED = {
  profileBefore: '2026-11-25-profile-before.md',
  profileAfter: '2026-11-25-profile-after.md',
  extprocAb: '2026-11-25-extproc-ab.md',
  semiDefault: '2026-11-25-s6-default-semispace.md',
  semiTwo: '2026-11-25-s6-semispace-2.md',
  changes: '../../docs/benchmarks.md#what-each-change-bought-issue-18',
  point2: '../../docs/benchmarks.md#point-2-where-gw-serves-added-cpu-goes-against-the-bare-proxy-2026-11-29-0440-utc',
  point2Phases: '../../docs/benchmarks.md#point-2-per-request-fixed-costs-where-the-pipelines-time-goes-2026-11-29-1200-utc',
  point2Remembered: '../../docs/benchmarks.md#point-2-work-a-request-repeats-remembered-or-skipped-2026-11-29-14001440-utc',
};

const fr = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}×`);

function links(results) {
  const own = [];
  if (results.profile && !results.profile.error) own.push('[this run: CPU profile of gw serve](#cpu-profile-of-gw-serve-under-load)');
  if (results.profile?.heap) own.push('[heap profile of gw serve](#heap-profile-of-gw-serve-what-it-still-holds-after-the-load)');
  if (results.profileExtproc && !results.profileExtproc.error) own.push('[CPU profile of gw extproc](#cpu-profile-of-gw-extproc-under-the-load-driver)');
  return {
    serve: [...own.filter((l) => !l.includes('extproc')), `committed: [before](${COMMITTED.profileBefore}) / [after](${COMMITTED.profileAfter}) the log and scanning changes`].join(', '),
    extproc: [
      ...own.filter((l) => l.includes('extproc')),
      `committed: [before](${COMMITTED.profileBefore}) / [after](${COMMITTED.profileAfter}) (section "CPU profile of gw extproc"), [floors A/B](${COMMITTED.extprocAb})`,
    ].join(', '),
    memory: [...own.filter((l) => l.includes('heap')), `committed: [s6 with V8's default young generation](${COMMITTED.semiDefault}) / [with 2 MB semi-spaces](${COMMITTED.semiTwo})`].join(', '),
  };
}

/** Markdown for one budget: why it is not met here, what was tried, where the profile is; null when there is nothing to say. */
function explain(b, { analysis, l }) {
  const floors = analysis.extprocFloors ?? {};
  // Which side held the rate in this run's s3: gw's CPU (busy plus waiting to run) or the driver's.
  const s3 = analysis.tables?.s3 ?? [];
  const gw = s3.find((r) => r.name === 'gw-memory');
  const proxy = s3.find((r) => r.name === 'node-proxy');
  const gwBound = gw != null && (gw.sutCpuPct ?? 0) + (gw.waitPct ?? 0) >= 90;
  const driverBound = gw != null && (gw.mockCpuPct ?? 0) + (gw.loadCpuPct ?? 0) >= 90;
  const driver = gwBound
    ? `In this run gw's CPU held the rate, not the driver: gw was busy ${Math.round(gw.sutCpuPct)} % of its CPU, and its threads waited to run for ${Math.round(gw.waitPct ?? 0)} % of the time (V8's GC helpers and libuv's threads share the one CPU it is pinned to), while the mock and the load generator used ${Math.round((gw.mockCpuPct ?? 0) + (gw.loadCpuPct ?? 0))} % of theirs. So the ratio is set by gw's CPU per stream: ${(gw.cpuMsPerStream ?? NaN).toFixed(2)} ms, against ${(proxy?.cpuMsPerStream ?? NaN).toFixed(2)} ms for the bare Node proxy (the same node:http server and undici client with no decisions). What stands in the way is gw's own per-stream work on top of that floor: authentication, body parse, admission, per-event SSE metering and forwarding (one socket write per event), the usage record and settlement, metrics and the log line, and the garbage it leaves (see the profile's split: our code, GC and socket writes). Tried: log lines batched, lazy secret scanning, SSE deltas metered on their bytes, provider origins parsed once ([what each change bought](${COMMITTED.changes})). Not done: coalescing several SSE events into one socket write (it would hold events back, against the "no event held" budget).`
    : driverBound
      ? 'In this run the driver held the rate: the load generator and the mock share CPU 0 and their CPU % add up to about 100 (s3 table), so the ratio measures the driver, not gw. CPU per stream (in the same row) is the figure the driver does not cap; its ratio is the one to read.'
      : 'Neither gw nor the driver was at its CPU limit in this run (s3 table): the rate was held by latency at 32 streams in flight and by other work on the machine (the run-queue wait column). CPU per stream (in the same row) is the figure least moved by either.';
  switch (b.key) {
    case 's1-p50':
    case 's1-p99':
      return `The bare Node proxy (bench/node-proxy.mjs: the same node:http server and undici client, no decisions) is the floor of a Node data plane; what it adds in this run is in the row. A target below that floor is out of reach for any Node data plane on this machine; the issue restates it as "within 0.1 ms of the floor" (next row). Tried: log lines batched, provider origins parsed once, spend plans reused, Connection headers parsed once per message ([what each change bought](${COMMITTED.changes})). Profiles: ${l.serve}.`;
    case 's1-floor':
    case 'ttfb':
      return `The difference to the floor is gw's own work per request: authentication (a sha256 of the token), JSON.parse of the whole body for the model and policy, admission (caller slot, spend lease), the usage record and settlement, prom-client observations and the request log line (see our code's share in the profile). Tried: log lines batched (212–246 instead of 246–326 µs of CPU per line), lazy secret scanning, provider origins parsed once, caller-slot sweeps skipped, SSE deltas metered on bytes ([what each change bought](${COMMITTED.changes})). Not done: caching token hashes keyed by the raw token (keeps raw tokens in memory), replacing prom-client (~3–4 % of busy time). Profiles: ${l.serve}.`;
    case 'serve-cpu-request':
    case 'serve-cpu-stream':
      return `Measured three ways on the s1 load: gw serve with the pipeline skipped (same process, server code and forwarding) used about 45 µs more than the proxy per request and the pipeline's phases about 220 µs more ([per-request costs](${COMMITTED.point2Phases})); timed in process, the phases are some twenty steps of 3–20 µs each (authentication, the body's fields, the model decision, the lease, the spend reservation, the releases, the record, the log line and metrics), each a behaviour the issue keeps. For streams, garbage collection is the largest part of the difference: gw allocates about twice the proxy's garbage per stream, so more of each stream's objects outlive a scavenge and are promoted ([where it goes](${COMMITTED.point2})). The per-request part is the same for a stream and a single answer, so it weighs most on the short non-streaming request. Tried: the token's sha256 in one call and then in JS, request ids from a pooled buffer, the record's time from a kept minute, log lines batched and written synchronously, lazy secret scanning, SSE deltas metered on their bytes, provider origins parsed once ([what each change bought](${COMMITTED.changes})), model ids' normal forms and repo slugs' verdicts remembered, the head's size counted as it is read ([a few per cent](${COMMITTED.point2Remembered})). Profiles: ${l.serve}.`;
    case 'serve-vs-baseline':
      return `The regression point 1 named (1.71× 11bec4b) was the idle collection deoptimizing hot code between bursts; it now waits 30 s and \`make bench-ab REF=11bec4b\` measured 0.92× (spread 0.56–1.11×) ([what each change bought](${COMMITTED.changes})). Read the row with the per-round ratios of the s3 table: a median near 1 whose spread straddles 1 is noise, not a regression. Profiles: ${l.serve}.`;
    case 'event-delay':
      return `Each event goes through the SSE meter (usage counting) and one write on the client socket; the bare Node proxy's own added delay is in the row. Tried: content deltas recognised on their bytes (metering a 31-delta stream 176 → 78 µs). Profiles: ${l.serve}.`;
    case 'vs-portkey':
    case 'vs-direct':
    case 'vs-litellm':
      return `${driver}${b.key === 'vs-litellm' ? ' LiteLLM runs over a longer window than the others (its streams finish in batches of 32).' : ''} Profiles: ${l.serve}.`;
    case 'extproc-chunk-abs':
      return `Every chunk answer is an HTTP/2 round trip through grpc-js: the bare grpc-js floor's p99 (in the row) is already above the target on this machine, so no processor on this transport reaches it; the issue restates it against the floor (next row). Profiles: ${l.extproc}.`;
    case 'extproc-chunk-floor':
    case 'extproc-request-phase':
      return `Wall-clock figures: they move with other load on the machine (the run-queue wait column of the ext_proc table; on the loaded machine of issue 18 the same build varied 2× between rounds). CPU per exchange (its own row) is the figure that does not move with the load. Profiles: ${l.extproc}.`;
    case 'extproc-cpu':
      return `The transport. In this run the bare grpc-js floor, which only answers empty continues, used ${fr(floors.grpc1)} the baseline's CPU per exchange at 1 stream (${fr(floors.grpc16)} at 16): with every line of our processor removed, gw on grpc-js would still be at that ratio, against a target of 0.67×. The same answers hand-framed over node:http2 (bench/extproc-floor-http2.mjs) used ${fr(floors.http2One)} (${fr(floors.http2Sixteen)} at 16). Profile split of gw extproc: Node's HTTP/2 and stream machinery ~30 %, V8 builtins and bindings (socket writes, copies) 17–30 %, our code 17–26 %, grpc-js 7–10 %, prom-client 2–4 %, protobufjs 1–2 % (so hand-written codecs would buy ~1 %). Tried: log lines batched (the write went from 15.5 % to 3.5 % of busy samples), lazy secret scanning, constant answers encoded once, header values decoded without a copy, origins parsed once, 2 MB semi-spaces. What would reach the budget: a gRPC server of our own on node:http2 (deadlines, metadata, status trailers, GOAWAY, flow control, the Envoy conformance tests kept), a transport rewrite not done in issue 18. Profiles: ${l.extproc}.`;
    case 'extproc-observe-cpu':
      return `What the observing filter removes is the processor's answer to each chunk; what it adds is a second gRPC stream per request (grpc-js sets up a server call for it: metadata, call object, handlers) and two more messages (its request and response headers). Envoy still sends every chunk, one message per data callback, and the processor reads and meters each one. Each way Envoy v1.39 offers, and why it does not halve this: observability_mode sends bodies only in STREAMED mode (ext_proc.cc sendDataInObservabilityMode), so no mode there has fewer messages; BUFFERED and BUFFERED_PARTIAL send fewer but hold the response until the buffer is full or the stream ends, so every token waits (point 3 forbids it); FULL_DUPLEX_STREAMED still sends each chunk and Envoy forwards only what the processor sends back, so each chunk waits on the processor again; response headers SKIP on the observing filter saves one message but Envoy then drops content-length from every response, JSON included (processor_state.h shouldRemoveContentLength); send_body_without_waiting_for_header_response and request_attributes concern the request side. Built beyond the filter: a gRPC transport of our own on node:http2 (--grpc-transport http2; with the filter 0.54–0.71× the baseline at 16 streams in three runs, not yet run behind a real Envoy, so not the default) and, tried and not kept, a hand-written request decoder (0.50× per chunk message, no change per exchange). What is left per message is grpc-js's own work (about 37 % of the garbage on grpc-js) and our metering of each chunk (docs/benchmarks.md, "Issue 26 point 3"). Profiles: ${l.extproc}.`;
    case 'rss-idle-extproc':
    case 'rss-idle-serve':
      return `About 50 MB of any Node process's RSS is the node binary and its libraries (RssFile). Loaded at start and needed by every data plane: yaml, ajv (the file's schemas), prom-client, undici, grpc-js and the protos (extproc). Tried: secret-scanning workers and rule tables loaded on first use (137 → 99 MB extproc, 130 → 94 MB serve), 2 MB semi-spaces; the Kubernetes client, pg, ioredis and OpenTelemetry load only when configured. Profiles: ${l.memory}.`;
    case 'rss-after-load-serve':
    case 'rss-after-load-extproc':
      return `${b.key === 'rss-after-load-extproc' ? "Measured on a processor of its own after a few thousand exchanges, as the issue words it: with memory state every exchange's usage record stays in memory until an exporter drains it (GW_USAGE_MEMORY_MB), so the processor of the rounds, after tens of thousands of exchanges, holds more (its figure is beside this one; a probe read 91.9 MB 10 s after 4,753 exchanges and 99.8 MB after about three times as many, old space in use 21.7 against 26.8 MB). " : ''}What stays after a load: old space full of promoted garbage that V8 collects only at its limit, and native memory (socket and connection buffers) that glibc kept in its arenas. Done: one compacting collection once nothing has been in flight for GW_IDLE_COLLECT_AFTER_MS (5 s), started as V8's memory measurement starts one, which keeps optimized code (a forced gc() and V8's own memory reducer deoptimized 88–102 functions; the image starts node with --no-memory-reducer); the image preloads jemalloc, which purges freed pages from a background thread within a second (MALLOC_CONF dirty_decay_ms:1000), where glibc kept 96–119 MB after this row's load even mapping 64 KiB socket buffers and keeping two arenas (jemalloc: 92 MB; docs/benchmarks.md, "Issue 26 point 5, third part"). Profiles: ${l.memory}.`;
    case 'rss-streams':
      return `Per open stream: an undici upstream request, a client socket and its buffers; V8 grows its young generation under load. Tried: 2 MB semi-spaces (s6 peak 160 → 122 MB). Profiles: ${l.memory}.`;
    case 'revocation':
      return 'A correctness property with a time bound, not a load figure: the end-to-end and operator tests revoke a token and assert the next request is refused (waiting on the condition, not on a clock); the bench has no case for it.';
    case 'operator-cold-start':
      return 'The figure runs from the spawn of `gw operator`, so it holds the Node process start (about 0.3 s) and the informers\' first list, which the goal ("after the informers listed") leaves out; the bench has no finer mark. docs/operator.md has the history (1.9–2.05 s on a quiet machine, 5–6 s under load).';
    case 'operator-throughput':
      return 'A figure the issue asks to see in this report, not a budget; the API server taking the creates is most of it.';
    case 'operator-rebuild':
      return 'See docs/operator.md ("Measured"): the rebuild lists every namespace and writes Redis in pipelines; under other load on the machine it has taken 3.5–7 s.';
    case 'soak-flat':
      return `With memory state, gw serve keeps usage records in a buffer bounded by GW_USAGE_MEMORY_MB (64 MB by default) until an exporter drains them, so RSS grows until that buffer is full and only then can it be flat; the slope is taken over the second half of the run for that reason. A soak shorter than the planned million requests is shown and not judged. Profiles: ${l.memory}.`;
    default:
      return null;
  }
}

/** The report's section on the budgets not met or not judged: one entry per such budget. */
export function obstacleSection(budgets, { results, analysis }) {
  const l = links(results);
  const open = budgets.filter((b) => b.ok !== true);
  if (open.length === 0) return [];
  const L = ['## Budgets not met: what stands in the way and what was tried', ''];
  L.push(
    'Each budget above that is not met (or could not be judged in this run), with what is in the way, what was tried, and the profiles that show it. "n/a" rows say in the table why they are not judged.',
  );
  L.push('');
  for (const b of open) {
    // A case that knows its own obstacle from its figures says it (b.obstacle); the rest are explained here.
    const why = b.obstacle ?? explain(b, { analysis, l });
    const verdict = b.ok === false ? 'not met' : 'not judged';
    L.push(`- **${b.what}** (${verdict}). ${why ?? "No analysis is recorded in the bench for this budget; see the case's own section and docs/benchmarks.md."}`);
  }
  L.push('');
  return L;
}
