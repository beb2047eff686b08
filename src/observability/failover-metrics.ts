import { Counter, Gauge, type Registry } from 'prom-client';

/** What a Redis failover did to this process (docs/resilience.md, "Redis failover"). */
export class FailoverMetrics {
  readonly failovers: Counter;
  readonly restored: Counter<'company'>;
  readonly released: Counter<'company'>;
  readonly unconfirmed: Gauge;
  readonly gateRefused: Counter;
  readonly gateClosed: Gauge;
  readonly reapplied: Counter;
  readonly overshoot: Counter<'company'>;
  /** What gw_usage_records_unconfirmed reports when scraped. */
  heldRecords: () => number = () => 0;

  constructor(registry: Registry) {
    const registers = [registry];
    this.failovers = new Counter({ name: 'gw_redis_failovers_seen_total', help: 'Times this process saw a new Redis primary (a promoted replica, or a restarted instance).', registers });
    this.restored = new Counter({
      name: 'gw_usage_records_restored_total',
      help: 'Usage records a failover had lost (acknowledged by the old primary, missing on the new one) and this process wrote again.',
      labelNames: ['company'] as const,
      registers,
    });
    this.released = new Counter({
      name: 'gw_usage_records_released_unconfirmed_total',
      help: 'Usage records let go before any replica was known to hold them, because too many were held (no replica has acknowledged for a long time).',
      labelNames: ['company'] as const,
      registers,
    });
    const held = (): number => this.heldRecords();
    this.unconfirmed = new Gauge({
      name: 'gw_usage_records_unconfirmed',
      help: 'Usage records written but not yet known to be on a replica (held by this process).',
      registers,
      collect() {
        this.set(held());
      },
    });
    this.gateRefused = new Counter({ name: 'gw_failover_refused_total', help: 'Requests refused with 503 unavailable because the state was not yet re-applied after a failover.', registers });
    this.gateClosed = new Gauge({ name: 'gw_failover_gate_closed', help: '1 while requests are refused after a failover, until the writer re-applied the state.', registers });
    this.overshoot = new Counter({
      name: 'gw_spend_overshoot_micros_total',
      help: 'Micro-dollars by which settlements pushed spend counters past their limits: a request metered beyond its reservation, or spend a Redis failover had lost, restored after the promoted primary admitted requests without it.',
      labelNames: ['company'] as const,
      registers,
    });
    this.reapplied = new Counter({ name: 'gw_failover_reapplied_total', help: 'Times the desired state (tokens, revocations, companies) was written again because of a failover.', registers });
  }
}
