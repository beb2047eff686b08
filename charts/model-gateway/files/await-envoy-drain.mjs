// preStop hook of the processor container:
//
//   node await-envoy-drain.mjs ENVOY_READY_URL ENVOY_ADMIN_URL MAX_SECONDS
//
// On pod deletion every container's preStop starts at once; the shutdown
// container's drains Envoy, whose /ready then answers 503. While it does,
// this hook keeps the processor up until Envoy has exited (its streams need
// the processor to the end), for at most MAX_SECONDS. If Envoy is not
// draining (the kubelet restarts only this container, after a failed liveness
// probe), the hook returns within seconds and Envoy is left alone.
const [ready = 'http://127.0.0.1:9902', admin = 'http://127.0.0.1:9901', maxArg = '615'] = process.argv.slice(2);
const deadline = Date.now() + Number(maxArg) * 1000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message) => process.stdout.write(`await-envoy-drain: ${message}\n`);

async function status(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

// The drain starts within moments of the hooks; give it a few seconds to show.
let draining = false;
for (let i = 0; i < 10 && !draining; i++) {
  const code = await status(`${ready}/ready`);
  draining = code === 503 || code === 0;
  if (!draining) await sleep(500);
}
if (!draining) {
  log('Envoy is not draining: a restart of this container alone; not waiting');
  process.exit(0);
}
log('Envoy is draining; waiting for it to finish its streams');
while (Date.now() < deadline) {
  if ((await status(`${admin}/server_info`)) === 0) {
    log('Envoy has exited');
    process.exit(0);
  }
  await sleep(1000);
}
log('deadline reached');
