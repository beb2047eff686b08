/** Latency samples in a growable Float64Array, and their percentiles (shared by the load generators). */
export class Samples {
  constructor(capacity = 1 << 16) {
    this.a = new Float64Array(capacity);
    this.n = 0;
  }
  push(v) {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  summary() {
    const n = this.n;
    if (n === 0) return { n: 0 };
    const s = this.a.slice(0, n).sort();
    const q = (p) => s[Math.min(n - 1, Math.floor(p * n))];
    let sum = 0;
    for (let i = 0; i < n; i++) sum += s[i];
    return { n, mean: sum / n, min: s[0], p50: q(0.5), p90: q(0.9), p99: q(0.99), p999: q(0.999), max: s[n - 1] };
  }
}
