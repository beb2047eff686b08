import type { AddressInfo } from 'node:net';
import type { ServeConfig } from '../config/serve-config.js';
import { hostForUrl, listen, startRuntime, type RuntimeDeps } from '../runtime/gateway-runtime.js';
import type { GatewayState } from '../state/state.js';
import { createGatewayServer } from './gateway-server.js';

export interface RunningGateway {
  readonly url: string;
  readonly adminUrl: string;
  readonly state: GatewayState;
  reload(): Promise<void>;
  stop(): Promise<void>;
}

/** `gw serve`: the pipeline behind the Node data plane, with the admin listener beside it. */
export async function runServe(config: ServeConfig, deps: RuntimeDeps): Promise<RunningGateway> {
  const runtime = await startRuntime(config, deps);
  const gateway = createGatewayServer(runtime.pipeline, {
    upstreamHeadersTimeoutMs: config.upstreamHeadersTimeoutMs,
    upstreamBodyTimeoutMs: config.upstreamBodyTimeoutMs,
    connections: config.connections,
    onInFlight: (n) => runtime.inFlight(n),
  });
  await listen(gateway.server, config.port, config.host);
  runtime.setReady(true);
  return {
    url: `http://${hostForUrl(config.host)}:${(gateway.server.address() as AddressInfo).port}`,
    adminUrl: runtime.adminUrl,
    state: runtime.state,
    reload: runtime.reload,
    async stop() {
      runtime.setReady(false);
      await gateway.shutdown(config.shutdownGraceMs);
      await runtime.close();
    },
  };
}
