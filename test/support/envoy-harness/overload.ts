/**
 * Envoy's overload manager, as far as the bootstrap `gw envoy-config`
 * generates it: resource monitors sampled every refresh_interval, threshold
 * triggers, and the actions' effects on the HTTP connection manager. The
 * harness has no tcmalloc heap of its own, so the fixed_heap monitor reads a
 * modelled heap: bytes the harness holds for in-flight requests (buffered
 * bodies) plus a baseline a test sets. Anything in the overload_manager
 * section this model does not know fails at harness start, so a generator
 * change cannot slip past it unmodelled.
 *
 * Envoy docs (target release v1.39):
 * https://www.envoyproxy.io/docs/envoy/v1.39.6/configuration/operations/overload_manager/overload_manager
 * https://www.envoyproxy.io/docs/envoy/v1.39.6/intro/arch_overview/operations/overload_manager
 */

export const ACTIONS = {
  stopAcceptingRequests: 'envoy.overload_actions.stop_accepting_requests',
  disableHttpKeepalive: 'envoy.overload_actions.disable_http_keepalive',
  shrinkHeap: 'envoy.overload_actions.shrink_heap',
} as const;

const FIXED_HEAP = 'envoy.resource_monitors.fixed_heap';
const FIXED_HEAP_TYPE = 'type.googleapis.com/envoy.extensions.resource_monitors.fixed_heap.v3.FixedHeapConfig';
const MAX_CONNECTIONS = 'envoy.resource_monitors.global_downstream_max_connections';
const MAX_CONNECTIONS_TYPE = 'type.googleapis.com/envoy.extensions.resource_monitors.downstream_connections.v3.DownstreamConnectionsConfig';

/** The overload_manager section as the harness reads it. */
export interface OverloadConfig {
  refreshIntervalMs: number;
  /** fixed_heap max_heap_size_bytes, when that monitor is configured. */
  maxHeapBytes: number | undefined;
  /** global_downstream_max_connections max_active_downstream_connections, when configured. */
  maxActiveDownstreamConnections: number | undefined;
  /** Action name → the fixed_heap pressure at which its threshold trigger saturates. */
  thresholds: Map<string, number>;
}

interface TriggerDoc {
  name?: string;
  threshold?: { value?: number };
  scaled?: unknown;
}

interface OverloadDoc {
  refresh_interval?: string;
  resource_monitors?: Array<{ name?: string; typed_config?: Record<string, unknown> }>;
  actions?: Array<{ name?: string; triggers?: TriggerDoc[] }>;
}

function durationMs(text: string | undefined): number {
  // Bootstrap default refresh_interval is 1 s: api/envoy/config/overload/v3/overload.proto (OverloadManager.refresh_interval).
  if (text === undefined) return 1000;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text);
  if (!match) throw new Error(`envoy-harness: overload_manager.refresh_interval ${text} is not a duration the harness reads`);
  return Number(match[1]) * 1000;
}

/** Reads the bootstrap's overload_manager; throws on any monitor, trigger or action the model lacks. */
export function readOverloadConfig(section: unknown): OverloadConfig {
  const doc = (section ?? {}) as OverloadDoc;
  let maxHeapBytes: number | undefined;
  let maxActiveDownstreamConnections: number | undefined;
  for (const monitor of doc.resource_monitors ?? []) {
    const typed = monitor.typed_config ?? {};
    if (monitor.name === FIXED_HEAP && typed['@type'] === FIXED_HEAP_TYPE) {
      maxHeapBytes = Number(typed.max_heap_size_bytes);
      if (!Number.isFinite(maxHeapBytes) || maxHeapBytes <= 0) throw new Error('envoy-harness: fixed_heap without a positive max_heap_size_bytes');
    } else if (monitor.name === MAX_CONNECTIONS && typed['@type'] === MAX_CONNECTIONS_TYPE) {
      // A proactive monitor: Envoy checks it at accept time and needs no action for it
      // (overload_manager.rst, "Limiting Active Connections").
      maxActiveDownstreamConnections = Number(typed.max_active_downstream_connections);
    } else {
      throw new Error(`envoy-harness: resource monitor ${monitor.name ?? '(unnamed)'} (${String(typed['@type'])}) is not modelled`);
    }
  }
  const thresholds = new Map<string, number>();
  const known = new Set<string>(Object.values(ACTIONS));
  for (const action of doc.actions ?? []) {
    const name = action.name ?? '';
    if (!known.has(name)) throw new Error(`envoy-harness: overload action ${name || '(unnamed)'} is not modelled`);
    for (const trigger of action.triggers ?? []) {
      if (trigger.name !== FIXED_HEAP || maxHeapBytes === undefined)
        throw new Error(`envoy-harness: overload action ${name} triggered by ${trigger.name ?? '(unnamed)'}, which is not a configured fixed_heap monitor`);
      if (trigger.scaled !== undefined || trigger.threshold?.value === undefined) throw new Error(`envoy-harness: overload action ${name}: only threshold triggers are modelled`);
      // An action's state is the highest over its triggers; with threshold triggers, the lowest threshold wins.
      thresholds.set(name, Math.min(thresholds.get(name) ?? 1, trigger.threshold.value));
    }
  }
  return { refreshIntervalMs: durationMs(doc.refresh_interval), maxHeapBytes, maxActiveDownstreamConnections, thresholds };
}

export interface OverloadStats {
  /** overload.envoy.resource_monitors.fixed_heap.pressure, as a fraction of 1. */
  heap_pressure: number;
  /** http.<prefix>.downstream_rq_overload_close */
  downstream_rq_overload_close: number;
  /** http.<prefix>.downstream_cx_overload_disable_keepalive */
  downstream_cx_overload_disable_keepalive: number;
  /** Refreshes during which shrink_heap was saturated (the harness has no free heap to release). */
  shrink_heap_refreshes: number;
  /** listener.<address>.downstream_global_cx_overflow: connections refused by the connection monitor. */
  downstream_global_cx_overflow: number;
}

/**
 * The overload manager's loop: every refresh_interval the fixed_heap
 * pressure is sampled and each action's state recomputed; between refreshes
 * the HTTP connection manager sees the last state, as in Envoy.
 */
export class OverloadManager {
  readonly stats: OverloadStats = {
    heap_pressure: 0,
    downstream_rq_overload_close: 0,
    downstream_cx_overload_disable_keepalive: 0,
    shrink_heap_refreshes: 0,
    downstream_global_cx_overflow: 0,
  };
  private baseline = 0;
  private held = 0;
  private readonly saturated = new Set<string>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(readonly config: OverloadConfig) {
    if (config.maxHeapBytes !== undefined) {
      this.timer = setInterval(() => this.refresh(), config.refreshIntervalMs);
      this.timer.unref();
    }
  }

  /** Heap in use besides the bodies the harness holds (what a test drives). */
  setBaselineHeap(bytes: number): void {
    this.baseline = bytes;
  }

  /** The bytes currently held for in-flight requests. */
  get heldBytes(): number {
    return this.held;
  }

  /** Accounts a buffer the harness holds; returns its release. */
  hold(bytes: number): () => void {
    this.held += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= bytes;
    };
  }

  /** Saturated as of the last refresh. */
  isSaturated(action: string): boolean {
    return this.saturated.has(action);
  }

  private refresh(): void {
    const max = this.config.maxHeapBytes as number;
    // fixed_heap: pressure = heap in use / max_heap_size_bytes
    // (source/extensions/resource_monitors/fixed_heap/fixed_heap_monitor.cc).
    const pressure = (this.baseline + this.held) / max;
    this.stats.heap_pressure = pressure;
    for (const [action, threshold] of this.config.thresholds) {
      // Threshold trigger: state 1 (saturated) once the pressure reaches the value, else 0
      // (api/envoy/config/overload/v3/overload.proto ThresholdTrigger;
      // source/server/overload_manager_impl.cc ThresholdTriggerImpl::updateValue).
      if (pressure >= threshold) this.saturated.add(action);
      else this.saturated.delete(action);
    }
    if (this.saturated.has(ACTIONS.shrinkHeap)) this.stats.shrink_heap_refreshes += 1;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
