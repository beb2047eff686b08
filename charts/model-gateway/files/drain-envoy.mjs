// preStop hook of the processor container: drains the Envoy beside it.
//
//   node drain-envoy.mjs ENVOY_ADMIN_URL ENDPOINT_DRAIN_SECONDS MAX_STREAM_SECONDS
//
// Envoy exits at once on SIGTERM, so the pod's shutdown is driven from here
// (the containers share the pod's network namespace):
//   1. POST /healthcheck/fail: Envoy's /ready answers 503, the pod leaves the Service.
//   2. POST /drain_listeners?graceful: keep-alive connections are told to close
//      (HTTP/1.1 Connection: close, HTTP/2 GOAWAY); after --drain-time-s the
//      listener stops accepting.
//   3. Wait ENDPOINT_DRAIN_SECONDS, then until no request is in flight
//      (http.gw.downstream_rq_active), for at most MAX_STREAM_SECONDS.
//   4. POST /quitquitquit: Envoy exits; this hook returns and the processor
//      gets its SIGTERM with nothing left to serve.
// The Envoy container's own preStop only sleeps, keeping Envoy up meanwhile.
const [admin = 'http://127.0.0.1:9901', drainArg = '15', streamArg = '600'] = process.argv.slice(2);
const endpointDrainMs = Number(drainArg) * 1000;
const deadline = Date.now() + endpointDrainMs + Number(streamArg) * 1000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message) => process.stdout.write(`drain-envoy: ${message}\n`);

async function call(method, path) {
  try {
    const res = await fetch(`${admin}${path}`, { method, signal: AbortSignal.timeout(5000) });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    return { status: 0, text: error instanceof Error ? error.message : String(error) };
  }
}

async function activeRequests() {
  const res = await call('GET', '/stats?filter=%5Ehttp%5C.gw%5C.downstream_rq_active%24');
  if (res.status !== 200) return null;
  const match = /downstream_rq_active:\s*(\d+)/.exec(res.text);
  return match ? Number(match[1]) : null;
}

log(`healthcheck/fail: ${(await call('POST', '/healthcheck/fail')).status}`);
log(`drain_listeners: ${(await call('POST', '/drain_listeners?graceful')).status}`);
await sleep(endpointDrainMs);
for (;;) {
  const active = await activeRequests();
  if (active === null) {
    log('Envoy does not answer; nothing left to drain');
    break;
  }
  if (active === 0) {
    log('no request in flight');
    break;
  }
  if (Date.now() >= deadline) {
    log(`${active} request(s) still in flight at the deadline`);
    break;
  }
  await sleep(1000);
}
log(`quitquitquit: ${(await call('POST', '/quitquitquit')).status}`);
