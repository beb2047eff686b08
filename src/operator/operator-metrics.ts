import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Every metric the operator exports, on one registry per process. */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles = new Counter({
    name: 'gw_operator_reconciles_total',
    help: 'Namespace reconciles by result: ok, error, or skipped (this replica is not the leader).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly reconcileDuration = new Histogram({
    name: 'gw_operator_reconcile_duration_seconds',
    help: 'Time to reconcile one namespace (cache read, Redis write, status and finalizers).',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly redisWrites = new Counter({
    name: 'gw_operator_redis_writes_total',
    help: 'Company records written to Redis (replace) or removed from it (remove).',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });
  readonly statusPatches = new Counter({
    name: 'gw_operator_status_patches_total',
    help: 'Status subresource patches, by kind (only made when the status changes).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly events = new Counter({
    name: 'gw_operator_events_total',
    help: 'Kubernetes Events emitted, by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly generatedTokens = new Counter({
    name: 'gw_operator_generated_tokens_total',
    help: 'Tokens generated for GatewayTokens without a hash.',
    registers: [this.registry],
  });
  readonly resyncs = new Counter({
    name: 'gw_operator_resyncs_total',
    help: 'Full resyncs (every company recomputed and rewritten).',
    registers: [this.registry],
  });
  readonly leader = new Gauge({
    name: 'gw_operator_leader',
    help: '1 while this replica holds the leader Lease and writes; 0 while it only watches.',
    registers: [this.registry],
  });
  readonly leaderTransitions = new Counter({
    name: 'gw_operator_leader_transitions_total',
    help: 'Times this replica became or stopped being the leader.',
    labelNames: ['to'] as const,
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'gw_operator_queue_depth',
    help: 'Namespaces waiting to be reconciled, being reconciled, or waiting for a retry.',
    registers: [this.registry],
  });
  readonly informerSynced = new Gauge({
    name: 'gw_operator_informer_synced',
    help: '1 once the informer of a resource has listed it; the operator acts only when all have.',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });
  readonly unreadableRecords = new Counter({
    name: 'gw_state_unreadable_records_total',
    help: 'Records read from Redis that this build refused: reason="newer" (a schema version newer than it reads; upgrade it) or "invalid". The read failed closed.',
    labelNames: ['record', 'reason'] as const,
    registers: [this.registry],
  });
  readonly informerRestarts = new Counter({
    name: 'gw_operator_informer_restarts_total',
    help: 'Watches restarted after an error.',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });

  constructor(defaults = true) {
    if (defaults) collectDefaultMetrics({ register: this.registry });
  }
}
