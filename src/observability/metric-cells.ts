import type { Registry } from 'prom-client';

/*
 * The per-request metrics, kept by the gateway itself and handed to
 * prom-client's registry only when /metrics is read.
 *
 * Why not prom-client's own Counter and Histogram on the request path: each
 * observation hashes its labels object into a string, checks every label name
 * against an array and, for a histogram, turns the bucket bound (a float) into
 * a property key twice. With thirteen observations per request that was
 * 30–40 µs of a request's CPU (docs/benchmarks.md, "prom-client on the request
 * path"). Here a label set is found through one Map per label, so an
 * observation on a known set allocates nothing, and a bucket is an array index.
 *
 * What a scrape sees is unchanged: get() returns the shapes prom-client's own
 * metrics return (same label order, same series order, same sums, computed in
 * the same order), and the registry formats them as it formats its own. A unit
 * test holds the exposition byte for byte against prom-client's metrics fed
 * the same observations.
 */

/** Values of the labels, in the order of the metric's labelNames. At most five labels. */
type LabelValues = readonly [string?, string?, string?, string?, string?];

interface Series<C> {
  readonly labels: Record<string, string>;
  readonly cell: C;
}

/** Label sets in first-seen order, each found through one Map per label. */
class SeriesTable<C> {
  private root: Map<string, unknown> = new Map();
  private list: Series<C>[] = [];

  constructor(
    private readonly labelNames: readonly string[],
    private readonly create: () => C,
  ) {
    if (labelNames.length > 5) throw new Error('at most five labels');
  }

  get series(): readonly Series<C>[] {
    return this.list;
  }

  /** The cell of these label values, created (at zero) the first time they are seen. */
  find(v0?: string, v1?: string, v2?: string, v3?: string, v4?: string): C {
    const depth = this.labelNames.length;
    if (depth === 0) return (this.root.get('') as C | undefined) ?? this.add(this.root, '', []);
    let level = this.root;
    for (let i = 0; i < depth - 1; i++) {
      const value = i === 0 ? v0 : i === 1 ? v1 : i === 2 ? v2 : v3;
      let next = level.get(value as string) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value as string, next);
      }
      level = next;
    }
    const last = depth === 1 ? v0 : depth === 2 ? v1 : depth === 3 ? v2 : depth === 4 ? v3 : v4;
    const found = level.get(last as string) as C | undefined;
    return found !== undefined ? found : this.add(level, last as string, [v0, v1, v2, v3, v4]);
  }

  reset(): void {
    this.root = new Map();
    this.list = [];
  }

  private add(level: Map<string, unknown>, key: string, values: LabelValues): C {
    const labels: Record<string, string> = {};
    for (let i = 0; i < this.labelNames.length; i++) {
      const value = values[i];
      if (typeof value !== 'string') throw new TypeError(`label ${this.labelNames[i]} has no value`);
      labels[this.labelNames[i]!] = value;
    }
    const cell = this.create();
    level.set(key, cell);
    this.list.push({ labels, cell });
    return cell;
  }
}

interface MetricConfig {
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly string[];
  readonly registers: readonly Registry[];
}

/** One exposition value, in prom-client's shape. */
interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
  /** Always null: these metrics keep no exemplars (prom-client's buckets say so the same way). */
  exemplar?: null;
  sharedLabels?: Record<string, string>;
}

interface ValueCell {
  value: number;
}

abstract class CellMetric {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  abstract readonly type: string;

  constructor(config: MetricConfig) {
    this.name = config.name;
    this.help = config.help;
    for (const registry of config.registers) registry.registerMetric(this as never);
  }
}

/** One number per label set: what a counter and a gauge share, and how prom-client reads both. */
abstract class ValueCells extends CellMetric {
  protected readonly table: SeriesTable<ValueCell>;

  constructor(config: MetricConfig) {
    super(config);
    this.table = new SeriesTable(config.labelNames ?? [], () => ({ value: 0 }));
  }

  get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: string }> {
    const values = this.table.series.map((s) => ({ value: s.cell.value, labels: s.labels }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.table.reset();
  }
}

/** A counter (prom-client's Counter semantics: no decrease, finite values; inc(…, 0) creates the series). */
export class CounterCells extends ValueCells {
  readonly type = 'counter';

  inc(by: number, v0?: string, v1?: string, v2?: string, v3?: string, v4?: string): void {
    if (!Number.isFinite(by)) throw new TypeError(`Value is not a valid number: ${by}`);
    if (by < 0) throw new Error('It is not possible to decrease a counter');
    this.table.find(v0, v1, v2, v3, v4).value += by;
  }
}

/** A gauge moved by deltas (prom-client's Gauge inc/dec). */
export class GaugeCells extends ValueCells {
  readonly type = 'gauge';

  add(delta: number, v0?: string, v1?: string, v2?: string, v3?: string, v4?: string): void {
    if (!Number.isFinite(delta)) throw new TypeError(`Value is not a valid number: ${delta}`);
    this.table.find(v0, v1, v2, v3, v4).value += delta;
  }
}

interface HistogramCell {
  /** Observations per bucket, not cumulative; index i counts values in (bound[i-1], bound[i]]. */
  readonly counts: number[];
  sum: number;
  count: number;
}

/** A histogram with fixed upper bounds (prom-client's Histogram semantics: finite values only). */
export class HistogramCells extends CellMetric {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];
  private readonly table: SeriesTable<HistogramCell>;

  constructor(config: MetricConfig & { readonly buckets: readonly number[] }) {
    super(config);
    if (config.labelNames?.includes('le')) throw new Error('le is a reserved label keyword');
    this.bounds = [...config.buckets];
    const width = this.bounds.length;
    this.table = new SeriesTable(config.labelNames ?? [], () => ({ counts: new Array<number>(width).fill(0), sum: 0, count: 0 }));
  }

  observe(value: number, v0?: string, v1?: string, v2?: string, v3?: string, v4?: string): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const cell = this.table.find(v0, v1, v2, v3, v4);
    const bounds = this.bounds;
    // Above the last bound a value is only in +Inf, which is the count.
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        cell.counts[i]! += 1;
        break;
      }
    }
    cell.sum += value;
    cell.count += 1;
  }

  /** What the registry formats: per series its cumulative buckets, +Inf, sum and count. */
  getForPromString(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: string }> {
    const bucketName = `${this.name}_bucket`;
    const values: MetricValue[] = [];
    for (const { labels, cell } of this.table.series) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += cell.counts[i]!;
        values.push({ labels: { le: this.bounds[i]! }, value: cumulative, metricName: bucketName, exemplar: null, sharedLabels: labels });
      }
      values.push({ labels: { le: '+Inf' }, value: cell.count, metricName: bucketName, exemplar: null, sharedLabels: labels });
      values.push({ labels: {}, value: cell.sum, metricName: `${this.name}_sum`, sharedLabels: labels });
      values.push({ labels: {}, value: cell.count, metricName: `${this.name}_count`, sharedLabels: labels });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  /** The JSON form (registry.getMetricsAsJSON): the series' labels merged into each value's. */
  async get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: string }> {
    const data = await this.getForPromString();
    data.values = data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    return data;
  }

  reset(): void {
    this.table.reset();
  }
}
