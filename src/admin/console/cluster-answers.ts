import type { GatewaySettingsSpec } from '../../resources/types.js';

// Apart from kube-writer.ts so that the console server can name them without loading @kubernetes/client-node
// (about 70 MB of RSS), which a process outside a cluster never needs.

/** A company's GatewaySettings object as read from the API server. */
export interface ClusterSettings {
  readonly name: string;
  readonly resourceVersion: string;
  /** Moves only when the spec changes (not on the operator's status or finalizer writes): what a page's version is. */
  readonly generation: number;
  readonly spec: GatewaySettingsSpec;
}

/** What the API server said no to, in its own words, with its status. */
export class ClusterRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
