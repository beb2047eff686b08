import { startExtProcPlane } from '../../support/extproc-plane.js';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { DATA_PLANES, type DataPlane } from '../data-planes.js';

export interface PlaneStart {
  args?: string[];
  env?: Record<string, string>;
  /**
   * The upstream idle limit: gw serve reads it from GW_UPSTREAM_HEADERS_TIMEOUT_MS
   * and GW_UPSTREAM_BODY_TIMEOUT_MS; behind Envoy it is the route's idle_timeout
   * (set by the Envoy config, here by the harness).
   */
  upstreamIdleMs?: number;
  /** Envoy harness only: its watermark flow control (Envoy always has it; the harness has it on request). */
  flowControl?: boolean;
}

export interface ResiliencePlane extends DataPlane {
  /** The process that holds the pipeline (gw serve, or gw extproc behind the harness). */
  readonly processLabel: 'gw serve' | 'gw extproc';
  launch(file: string, options?: PlaneStart): Promise<GatewayProcess>;
}

/** DATA_PLANES, with the one setting these suites need that lives outside gw on the Envoy plane. */
export const PLANES: ResiliencePlane[] = DATA_PLANES.map((plane) => {
  const envoy = plane.start === startExtProcPlane;
  return {
    ...plane,
    processLabel: envoy ? 'gw extproc' : 'gw serve',
    launch(file: string, options: PlaneStart = {}): Promise<GatewayProcess> {
      const idle = options.upstreamIdleMs;
      const env = { ...(options.env ?? {}), ...(idle !== undefined ? { GW_UPSTREAM_HEADERS_TIMEOUT_MS: String(idle), GW_UPSTREAM_BODY_TIMEOUT_MS: String(idle) } : {}) };
      const base = { args: options.args ?? [], env };
      if (!envoy) return plane.start(file, base);
      return startExtProcPlane(file, {
        ...base,
        harness: { ...(idle !== undefined ? { routeIdleTimeoutMs: idle } : {}), ...(options.flowControl ? { flowControl: true } : {}) },
      });
    },
  };
});
