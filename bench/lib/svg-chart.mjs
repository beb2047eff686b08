// A small line-chart writer for the bench report: one SVG per chart, several series, optional
// log scales; no dependency. Points with a null or non-positive (log axis) value are left out.

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Round, readable tick values covering [lo, hi]: powers of ten (and 2, 5 between) on a log axis. */
function ticks(lo, hi, log) {
  if (!(hi > lo)) return [lo];
  if (log) {
    const out = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of hi / lo > 1000 ? [1] : [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
      }
    }
    return out.length >= 2 ? out : [lo, hi];
  }
  const raw = (hi - lo) / 5;
  const step = [1, 2, 2.5, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

export function formatTick(v, unit = '') {
  if (unit === 'B') {
    if (v >= 2 ** 20) return `${+(v / 2 ** 20).toPrecision(3)} MiB`;
    if (v >= 1024) return `${+(v / 1024).toPrecision(3)} KiB`;
    return `${v} B`;
  }
  const a = Math.abs(v);
  const s = a >= 1e6 ? `${+(v / 1e6).toPrecision(3)}M` : a >= 1e4 ? `${+(v / 1e3).toPrecision(3)}k` : a >= 1 || a === 0 ? `${+v.toPrecision(4)}` : `${+v.toPrecision(2)}`;
  return unit ? `${s}${unit === '%' ? '%' : ` ${unit}`}` : s;
}

/**
 * @param {{ title: string, xLabel: string, yLabel: string, xLog?: boolean, yLog?: boolean, xUnit?: string, yUnit?: string,
 *           series: { name: string, points: [number, number | null][] }[], note?: string, width?: number, height?: number }} chart
 * @returns {string} the SVG document
 */
export function lineChart(chart) {
  const W = chart.width ?? 720;
  const H = chart.height ?? 420;
  const m = { left: 70, right: 170, top: 40, bottom: chart.note ? 70 : 52 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const ok = (v, log) => typeof v === 'number' && Number.isFinite(v) && (!log || v > 0);
  const series = chart.series.map((s) => ({ ...s, points: s.points.filter(([x, y]) => ok(x, chart.xLog) && ok(y, chart.yLog)) })).filter((s) => s.points.length > 0);
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const L = [];
  L.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  L.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  L.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(chart.title)}</text>`);
  if (xs.length === 0) {
    L.push(`<text x="${W / 2}" y="${H / 2}" text-anchor="middle">no data</text></svg>`);
    return L.join('\n') + '\n';
  }
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (!chart.yLog) y0 = Math.min(0, y0);
  if (x1 === x0) [x0, x1] = chart.xLog ? [x0 / 2, x1 * 2] : [x0 - 1, x1 + 1];
  if (y1 === y0) [y0, y1] = chart.yLog ? [y0 / 2, y1 * 2] : [y0 - 1, y1 + 1];
  if (!chart.yLog) y1 += (y1 - y0) * 0.05;
  const tx = (v) => (chart.xLog ? Math.log(v / x0) / Math.log(x1 / x0) : (v - x0) / (x1 - x0));
  const ty = (v) => (chart.yLog ? Math.log(v / y0) / Math.log(y1 / y0) : (v - y0) / (y1 - y0));
  const X = (v) => +(m.left + tx(v) * pw).toFixed(1);
  const Y = (v) => +(m.top + ph - ty(v) * ph).toFixed(1);

  for (const t of ticks(y0, y1, chart.yLog)) {
    L.push(`<line x1="${m.left}" x2="${m.left + pw}" y1="${Y(t)}" y2="${Y(t)}" stroke="#e4e4e4"/>`);
    L.push(`<text x="${m.left - 6}" y="${Y(t) + 4}" text-anchor="end">${esc(formatTick(t, chart.yUnit))}</text>`);
  }
  const distinctX = [...new Set(xs)].sort((a, b) => a - b);
  const xt = chart.xLog && distinctX.length <= 12 ? distinctX : ticks(x0, x1, chart.xLog);
  for (const t of xt) {
    L.push(`<line x1="${X(t)}" x2="${X(t)}" y1="${m.top}" y2="${m.top + ph}" stroke="#f0f0f0"/>`);
    L.push(`<text x="${X(t)}" y="${m.top + ph + 16}" text-anchor="middle">${esc(formatTick(t, chart.xUnit))}</text>`);
  }
  L.push(`<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#888"/>`);
  L.push(`<text x="${m.left + pw / 2}" y="${m.top + ph + 36}" text-anchor="middle">${esc(chart.xLabel)}${chart.xLog ? ' (log scale)' : ''}</text>`);
  L.push(`<text transform="translate(16 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(chart.yLabel)}${chart.yLog ? ' (log scale)' : ''}</text>`);
  if (chart.note) L.push(`<text x="${m.left}" y="${H - 10}" font-size="11" fill="#555">${esc(chart.note)}</text>`);

  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const dash = DASHES[Math.floor(i / PALETTE.length) % DASHES.length] || (s.dashed ? '6 3' : '');
    const pts = s.points.map(([x, y]) => `${X(x)},${Y(y)}`).join(' ');
    L.push(`<polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    for (const [x, y] of s.points)
      L.push(`<circle cx="${X(x)}" cy="${Y(y)}" r="3" fill="${color}"><title>${esc(`${s.name}: ${formatTick(x, chart.xUnit)} → ${formatTick(y, chart.yUnit)}`)}</title></circle>`);
    const ly = m.top + 8 + i * 18;
    L.push(`<line x1="${m.left + pw + 12}" x2="${m.left + pw + 34}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    L.push(`<text x="${m.left + pw + 40}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  L.push('</svg>');
  return L.join('\n') + '\n';
}
