import type { ServeConfig } from '../config/serve-config.js';
import { startRuntime, type RuntimeDeps } from '../runtime/gateway-runtime.js';
import type { GatewayState } from '../state/state.js';
import { startExtProcServer } from './extproc-server.js';
import { reclaimStaleSocket } from './socket-file.js';

export interface RunningExtProc {
  readonly address: string;
  readonly adminUrl: string;
  readonly state: GatewayState;
  reload(): Promise<void>;
  stop(): Promise<void>;
}

/** `gw extproc`: the pipeline behind Envoy's External Processing protocol. */
export async function runExtProc(config: ServeConfig, deps: RuntimeDeps): Promise<RunningExtProc> {
  // Before anything else starts: a socket served by a live instance ends this one at once.
  const reclaimed = config.socketPath !== null ? await reclaimStaleSocket(config.socketPath) : false;
  const runtime = await startRuntime(config, deps);
  if (reclaimed) deps.logger.warn({ socket: config.socketPath }, 'removed a stale socket left by a processor that did not shut down');
  const bind = config.socketPath !== null ? { socketPath: config.socketPath } : { host: config.host, port: config.port };
  const server = await startExtProcServer(runtime.pipeline, bind, (n) => runtime.metrics.inFlight.set(n));
  runtime.setReady(true);
  return {
    address: server.address,
    adminUrl: runtime.adminUrl,
    state: runtime.state,
    reload: runtime.reload,
    async stop() {
      runtime.setReady(false);
      await server.shutdown(config.shutdownGraceMs);
      await runtime.close();
    },
  };
}
