// s8e: what secret scanning finds and what it leaves alone, on data written by other projects
// (bench/redaction-sets/published, held out by project) and on real content without credentials
// (bench/redaction-sets/precision). Scores only; speed is s8 and s8w.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH, ROOT, log, runs } from '../lib/options.mjs';
import { budget } from '../budgets.mjs';

export default {
  id: 's8e',
  order: 52,
  selected: () => runs('s8e'),
  async run(ctx) {
    log('s8e: redaction recall by source project and precision set');
    try {
      const { redactJsonBody } = await import(pathToFileURL(join(ROOT, 'dist/redaction/index.js')).href);
      const { TUNING, HELD_OUT, scoreSource } = await import(pathToFileURL(join(BENCH, 'redaction-sets/published.mjs')).href);
      const { scorePrecision } = await import(pathToFileURL(join(BENCH, 'redaction-sets/precision.mjs')).href);
      const redact = (b) => redactJsonBody(b);
      const sources = [...TUNING, ...HELD_OUT].map((name) => {
        const r = scoreSource(name, redact);
        return { name, side: TUNING.includes(name) ? 'tuning' : 'held out', widely: r.widely, widelyRandom: r.widelyRandom, all: r.positives, negatives: r.negatives };
      });
      const p = scorePrecision(redact);
      let lines = 0;
      let changed = 0;
      for (const [kind, t] of p.byKind) {
        if (kind.includes('example credentials')) continue;
        lines += t.lines;
        changed += t.changed;
      }
      ctx.results.redactionEval = { sources, precision: { lines, changed, protected: p.protectedCounts, missing: p.missing, unexpected: p.unexpected } };
    } catch (err) {
      ctx.results.redactionEval = { failed: true, error: String(err) };
    }
  },
  report({ results }) {
    const r = results.redactionEval;
    if (!r || r.failed) return null;
    const pct = (t) => (t.n === 0 ? 'n/a' : `${t.ok}/${t.n} = ${((100 * t.ok) / t.n).toFixed(1)} %`);
    const out = [
      "### s8e: secret scanning on other projects' samples (held out by project) and on real content",
      '',
      '| source project | side | recall, widely-used | recall, all | negatives untouched | widely used, values not placeholder-shaped |',
      '|---|---|---|---|---|---|',
    ];
    for (const s of r.sources) out.push(`| ${s.name} | ${s.side} | ${pct(s.widely)} | ${pct(s.all)} | ${pct(s.negatives)} | ${s.widelyRandom ? pct(s.widelyRandom) : 'n/a'} |`);
    const held = r.sources.filter((s) => s.side === 'held out').reduce((t, s) => ({ ok: t.ok + s.widely.ok, n: t.n + s.widely.n }), { ok: 0, n: 0 });
    const share = r.precision.changed / r.precision.lines;
    const prot = Object.entries(r.precision.protected);
    out.push('', `Precision set: ${r.precision.changed} of ${r.precision.lines} lines changed (${(100 * share).toFixed(3)} %); ${prot.map(([k, t]) => `${k} ${t.kept}/${t.n} unchanged`).join(', ')}.`);
    // Parts fetched at bench time that could not be had: the figure above is then of a smaller set, and says so.
    for (const m of r.precision.missing) out.push('', `**Precision set part missing: ${m.kind}** (${m.from}): ${m.reason}`);
    for (const u of r.precision.unexpected) out.push('', `**Precision set part ${u.kind}: ${u.lines} lines, not the ${u.expected} measured.**`);
    return {
      sections: [out.join('\n')],
      budgets: [
        budget('redaction-heldout', (100 * held.ok) / held.n),
        budget('redaction-precision', 100 * share),
        budget(
          'redaction-protected',
          prot.reduce((n, [, t]) => n + t.n - t.kept, 0),
        ),
      ],
    };
  },
};
