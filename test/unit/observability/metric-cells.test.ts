import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CounterCells, GaugeCells, HistogramCells } from '../../../src/observability/metric-cells.js';

// A small deterministic generator, so a failure names a reproducible sequence.
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Label values a scrape must escape, and ones that look like numbers or are empty.
const VALUES = ['acme', '', 'a"quote', 'back\\slash', 'new\nline', '200', 'é-ünïcode', 'provider:model'];
const BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5];

function pair(): { theirs: Registry; ours: Registry } {
  return { theirs: new Registry(), ours: new Registry() };
}

describe('metric cells against prom-client', () => {
  it('expose the same text and JSON as prom-client fed the same observations', async () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const next = generator(seed);
      const pick = (): string => VALUES[Math.floor(next() * VALUES.length)]!;
      const { theirs, ours } = pair();
      const counter = new Counter({ name: 't_total', help: 'a "counter"\nwith help', labelNames: ['a', 'b', 'c'], registers: [theirs] });
      const counterCells = new CounterCells({ name: 't_total', help: 'a "counter"\nwith help', labelNames: ['a', 'b', 'c'], registers: [ours] });
      const hist = new Histogram({ name: 'h_seconds', help: 'h', labelNames: ['a', 'b', 'c', 'd', 'e'], buckets: BUCKETS, registers: [theirs] });
      const histCells = new HistogramCells({ name: 'h_seconds', help: 'h', labelNames: ['a', 'b', 'c', 'd', 'e'], buckets: BUCKETS, registers: [ours] });
      const one = new Histogram({ name: 'one_seconds', help: 'one label', labelNames: ['route'], buckets: BUCKETS, registers: [theirs] });
      const oneCells = new HistogramCells({ name: 'one_seconds', help: 'one label', labelNames: ['route'], buckets: BUCKETS, registers: [ours] });
      const gauge = new Gauge({ name: 'g', help: 'g', labelNames: ['a', 'b'], registers: [theirs] });
      const gaugeCells = new GaugeCells({ name: 'g', help: 'g', labelNames: ['a', 'b'], registers: [ours] });
      const bare = new Counter({ name: 'bare_total', help: 'no labels', registers: [theirs] });
      const bareCells = new CounterCells({ name: 'bare_total', help: 'no labels', registers: [ours] });
      for (let i = 0; i < 2000; i++) {
        const [a, b, c, d, e] = [pick(), pick(), pick(), pick(), pick()];
        // Integers, zero (which creates the series) and fractions whose float sums depend on order.
        const by = next() < 0.2 ? 0 : next() < 0.5 ? Math.floor(next() * 1000) : next() * 3;
        counter.inc({ a, b, c }, by);
        counterCells.inc(by, a, b, c);
        // Values on a bound, between bounds and above the last one.
        const v = next() < 0.2 ? BUCKETS[Math.floor(next() * BUCKETS.length)]! : next() * 4;
        hist.observe({ a, b, c, d, e }, v);
        histCells.observe(v, a, b, c, d, e);
        one.observe({ route: a }, v);
        oneCells.observe(v, a);
        const delta = next() < 0.5 ? 1 : -1;
        gauge.inc({ a, b }, delta);
        gaugeCells.add(delta, a, b);
        bare.inc(by);
        bareCells.inc(by);
      }
      expect(await ours.metrics()).toBe(await theirs.metrics());
      expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    }
  });

  it('refuse what prom-client refuses and keep nothing of the refused observation', async () => {
    const registry = new Registry();
    const counter = new CounterCells({ name: 'c_total', help: 'c', labelNames: ['a'], registers: [registry] });
    const hist = new HistogramCells({ name: 'h', help: 'h', labelNames: ['a'], buckets: [1], registers: [registry] });
    expect(() => counter.inc(-1, 'x')).toThrow('not possible to decrease');
    expect(() => counter.inc(Number.NaN, 'x')).toThrow('not a valid number');
    expect(() => hist.observe(Number.POSITIVE_INFINITY, 'x')).toThrow('not a valid number');
    expect(() => new HistogramCells({ name: 'x', help: 'x', labelNames: ['le'], buckets: [1], registers: [] })).toThrow('reserved');
    expect(() => counter.inc(1)).toThrow('label a has no value');
    expect(await registry.metrics()).toBe('# HELP c_total c\n# TYPE c_total counter\n\n# HELP h h\n# TYPE h histogram\n');
  });

  it('start again from nothing when the registry resets them', async () => {
    const registry = new Registry();
    const counter = new CounterCells({ name: 'c_total', help: 'c', labelNames: ['a'], registers: [registry] });
    counter.inc(2, 'x');
    registry.resetMetrics();
    counter.inc(1, 'y');
    expect(await registry.metrics()).toBe('# HELP c_total c\n# TYPE c_total counter\nc_total{a="y"} 1\n');
  });
});
