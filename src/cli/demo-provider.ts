import type { AddressInfo } from 'node:net';
import { createDemoProvider, DEMO_LABEL } from '../serve/demo-provider.js';

/**
 * `node dist/cli/demo-provider.js [PORT]`: the canned-answer provider that
 * `make run` starts when neither ANTHROPIC_API_KEY nor GW_VENDOR_BASE_URL is
 * set. Loopback only, and not a `gw` command: it is a first-run aid, never a
 * provider to deploy.
 */
const requested = Number(process.argv[2] ?? 0);
if (!Number.isInteger(requested) || requested < 0 || requested > 65535) {
  process.stderr.write(`demo provider: the port must be 0-65535, got "${process.argv[2]}"\n`);
  process.exit(2);
}
const server = createDemoProvider();
server.listen(requested, '127.0.0.1', () => {
  process.stdout.write(`demo provider: listening on http://127.0.0.1:${(server.address() as AddressInfo).port} ${DEMO_LABEL}\n`);
});
const stop = (): void => {
  server.close();
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
