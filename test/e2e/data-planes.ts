import { startExtProcPlane } from '../support/extproc-plane.js';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';

/**
 * The black-box suite runs unchanged against every data plane listed here.
 * Each starts from the same resource file and exposes the same surface: a
 * base URL for callers, the admin URL, the process output (for leak checks).
 */
export interface DataPlane {
  readonly name: string;
  /**
   * gw serve parses HTTP itself and answers unparseable requests with its own
   * error shape; behind Envoy, Envoy's codec answers them before any processor is asked.
   */
  readonly parsesHttp: boolean;
  /** Envoy cancels the ext_proc stream alike for a client disconnect and an upstream reset. */
  readonly seesUpstreamResets: boolean;
  start(file: string, options?: { args?: string[]; env?: Record<string, string> }): Promise<GatewayProcess>;
}

export const DATA_PLANES: DataPlane[] = [
  { name: 'gw serve', start: startGateway, parsesHttp: true, seesUpstreamResets: true },
  { name: 'Envoy harness + gw extproc', start: startExtProcPlane, parsesHttp: false, seesUpstreamResets: false },
];
