import { startGateway, type GatewayProcess } from '../support/gateway-process.js';

/**
 * The black-box suite runs unchanged against every data plane listed here.
 * Each starts from the same resource file and exposes the same surface: a
 * base URL for callers, the admin URL, the process output (for leak checks).
 */
export interface DataPlane {
  readonly name: string;
  start(file: string, options?: { args?: string[]; env?: Record<string, string> }): Promise<GatewayProcess>;
}

export const DATA_PLANES: DataPlane[] = [{ name: 'gw serve', start: startGateway }];
