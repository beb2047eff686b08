import type { ServeConfig } from '../config/serve-config.js';
import { startRuntime, type RuntimeDeps } from '../runtime/gateway-runtime.js';
import type { GatewayState } from '../state/state.js';
import { startExtProcServer } from './extproc-server.js';
import { reclaimStaleSocket } from './socket-file.js';
import { lockSocketPath } from './socket-lock.js';

export interface RunningExtProc {
  readonly address: string;
  readonly adminUrl: string;
  readonly state: GatewayState;
  reload(): Promise<void>;
  stop(): Promise<void>;
}

/** `gw extproc`: the pipeline behind Envoy's External Processing protocol. */
export async function runExtProc(config: ServeConfig, deps: RuntimeDeps): Promise<RunningExtProc> {
  // Before anything else starts: a socket served (or being claimed) by a live instance ends
  // this one at once. The lock is held from before the stale check until this one stops.
  const lock = config.socketPath !== null ? await lockSocketPath(config.socketPath) : null;
  let runtime: Awaited<ReturnType<typeof startRuntime>> | undefined;
  let server: Awaited<ReturnType<typeof startExtProcServer>>;
  try {
    const reclaimed = config.socketPath !== null ? await reclaimStaleSocket(config.socketPath) : false;
    runtime = await startRuntime(config, deps);
    if (reclaimed) deps.logger.warn({ socket: config.socketPath }, 'removed a stale socket left by a processor that did not shut down');
    const bind = config.socketPath !== null ? { socketPath: config.socketPath } : { host: config.host, port: config.port };
    server = await startExtProcServer(runtime.pipeline, bind, deps.logger, (n) => runtime?.inFlight(n), config.grpcTransport);
  } catch (error) {
    await runtime?.close();
    await lock?.release();
    throw error;
  }
  const started = runtime;
  started.setReady(true);
  return {
    address: server.address,
    adminUrl: started.adminUrl,
    state: started.state,
    reload: started.reload,
    async stop() {
      started.setReady(false);
      await server.shutdown(config.shutdownGraceMs);
      await started.close();
      await lock?.release();
    },
  };
}
