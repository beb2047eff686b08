// Scores the redactor on an evaluation set: each case is embedded in an
// Anthropic request body (rotating over the places text reaches a body),
// redacted, and checked: every copy of every secret covered by a reported
// span, nothing reported in negatives, bytes outside the spans unchanged.

const jsonEscape = (s) => JSON.stringify(s).slice(1, -1);

function body(messages, system = 'You are a careful assistant.') {
  return Buffer.from(JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, system, messages }), 'utf8');
}

export const EMBEDDINGS = [
  { name: 'message text', build: (t) => body([{ role: 'user', content: [{ type: 'text', text: t }] }]), escape: jsonEscape },
  {
    name: 'tool_result',
    build: (t) =>
      body([
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'config' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: t }] },
      ]),
    escape: jsonEscape,
  },
  {
    name: 'tool_use input',
    build: (t) => body([{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'write_file', input: { path: 'notes.txt', content: t } }] }]),
    escape: jsonEscape,
  },
  {
    name: 'JSON in a tool_result string',
    build: (t) =>
      body([
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'run', input: { cmd: 'cat out.json' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: JSON.stringify({ stdout: t, exit: 0 }) }] },
      ]),
    escape: (s) => jsonEscape(jsonEscape(s)),
  },
  { name: 'system prompt', build: (t) => body([{ role: 'user', content: 'Please review.' }], `Context:\n${t}`), escape: jsonEscape },
];

function covered(findings, start, end) {
  let at = start;
  for (const f of findings) {
    if (f.start <= at && f.end > at) at = f.end;
    if (at >= end) return true;
  }
  return at >= end;
}

/** Copies of the secrets in the body: how many, and how many are fully inside redacted spans. */
export function copies(input, findings, secrets, escape) {
  const sorted = [...findings].sort((a, b) => a.start - b.start);
  let total = 0;
  let gone = 0;
  for (const secret of secrets) {
    const needle = Buffer.from(escape(secret), 'utf8');
    for (let from = input.indexOf(needle); from >= 0; from = input.indexOf(needle, from + 1)) {
      total++;
      if (covered(sorted, from, from + needle.length)) gone++;
    }
  }
  return { total, gone };
}

export function intact(input, result) {
  const parts = [];
  let from = 0;
  for (const f of result.findings) {
    parts.push(input.subarray(from, f.start), Buffer.from(`[REDACTED: ${f.ruleId}]`));
    from = f.end;
  }
  parts.push(input.subarray(from));
  if (!Buffer.concat(parts).equals(result.body)) return false;
  try {
    JSON.parse(result.body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const tally = () => ({ n: 0, ok: 0 });

/** Runs every case; returns totals and breakdowns by service and by shape. */
export function scoreSet(cases, redactJsonBody) {
  const out = {
    positives: tally(),
    widely: tally(),
    negatives: tally(),
    partialCopies: 0,
    broken: 0,
    byService: new Map(),
    byShape: new Map(),
    byEmbedding: new Map(),
    negByShape: new Map(),
    misses: [],
    falsePositives: [],
  };
  const bump = (map, key, ok) => {
    const t = map.get(key) ?? tally();
    t.n++;
    if (ok) t.ok++;
    map.set(key, t);
  };
  cases.forEach((c, i) => {
    const embedding = EMBEDDINGS[i % EMBEDDINGS.length];
    const input = embedding.build(c.text);
    const result = redactJsonBody(input);
    if (!intact(input, result)) out.broken++;
    if (c.kind === 'positive') {
      const { total, gone } = copies(input, result.findings, c.secrets, embedding.escape);
      const ok = total > 0 && gone === total;
      if (gone > 0 && gone < total) out.partialCopies++;
      out.positives.n++;
      if (ok) out.positives.ok++;
      if (c.widely) {
        out.widely.n++;
        if (ok) out.widely.ok++;
      }
      bump(out.byService, c.service, ok);
      bump(out.byShape, c.shape, ok);
      bump(out.byEmbedding, embedding.name, ok);
      if (!ok) out.misses.push({ index: i, service: c.service, shape: c.shape, embedding: embedding.name, found: result.findings.map((f) => f.ruleId) });
    } else {
      const ok = result.findings.length === 0;
      out.negatives.n++;
      if (ok) out.negatives.ok++;
      bump(out.negByShape, c.shape, ok);
      if (!ok) out.falsePositives.push({ index: i, shape: c.shape, rules: result.findings.map((f) => f.ruleId) });
    }
  });
  return out;
}
