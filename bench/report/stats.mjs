// The numbers of a run: medians and ranges over rounds, paired differences and
// ratios against another case of the same round, and the sampled process figures.

export function median(values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}
export const range = (values) => {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x));
  return v.length ? [Math.min(...v), Math.max(...v)] : null;
};
export const get = (obj, path) => path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);

/** Median over rounds of one field of one case, and of its paired difference / ratio to another case. */
export function stat(rounds, name, path) {
  return median(rounds.map((r) => get(r[name], path)));
}
export function pairedDiff(rounds, name, base, path) {
  return median(rounds.map((r) => (r[name] && r[base] ? get(r[name], path) - get(r[base], path) : NaN)));
}
export function pairedRatio(rounds, name, base, path) {
  return median(rounds.map((r) => (r[name] && r[base] ? get(r[name], path) / get(r[base], path) : NaN)));
}
export function spread(rounds, name, path) {
  return range(rounds.map((r) => get(r[name], path)));
}
// procs: [system under test, mock, redis] as sampled by bench/run.mjs.
export const proc = (result, index = 0) => result?.procs?.[index] ?? null;
export function perRequestCpuUs(result) {
  const cpu = proc(result)?.cpuMs ?? null;
  const n = result?.completed ?? result?.streams;
  return cpu === null || !n ? null : (cpu * 1000) / n;
}
/** CPU per request of one case against another of the same round: median ratio, and median difference in µs. */
export function pairedCpuRatio(rounds, name, base) {
  return median(rounds.map((r) => perRequestCpuUs(r[name]) / perRequestCpuUs(r[base])));
}
export function pairedCpuDiffUs(rounds, name, base) {
  return median(rounds.map((r) => perRequestCpuUs(r[name]) - perRequestCpuUs(r[base])));
}
export const cpuPercent = (result, index = 0) => proc(result, index)?.cpuPercent ?? null;
export const waitPercent = (result) => proc(result)?.waitPercent ?? null;
export const peakRss = (result) => proc(result)?.rssPeakMB ?? null;
