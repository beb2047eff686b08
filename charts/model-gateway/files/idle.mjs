// The shutdown container's main process: it only waits. Its preStop hook
// (drain-envoy.mjs) drains Envoy when the pod is deleted; SIGTERM then ends it.
process.on('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1 << 30);
