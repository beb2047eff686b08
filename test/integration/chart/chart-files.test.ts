/**
 * The chart's files that are copies or derivatives of the project's sources
 * of truth, and must not drift from them: the CRDs, the configuration
 * reference, the values schema against the `gw envoy-config` settings, and the
 * Grafana dashboard against the metrics the code exports. No helm needed.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { VALUE_KEYS } from '../../../src/config/envoy-settings.js';
import { CHART, ROOT, valueSets } from './chart-support.js';

const execFileAsync = promisify(execFile);

describe('chart CRDs', () => {
  it('charts/model-gateway/crds/ holds byte-identical copies of crds/', () => {
    const top = readdirSync(join(ROOT, 'crds')).sort();
    const chart = readdirSync(join(CHART, 'crds')).sort();
    const hint = "the chart's CRDs are stale: run `make chart-crds` (cp crds/*.yaml charts/model-gateway/crds/)";
    expect(chart, hint).toEqual(top);
    for (const file of top) {
      const a = readFileSync(join(ROOT, 'crds', file));
      const b = readFileSync(join(CHART, 'crds', file));
      expect(b.equals(a), `${file}: ${hint}`).toBe(true);
    }
  });
});

describe('configuration reference', () => {
  it('docs/configuration.md is what scripts/gen-config-reference.mjs writes', async () => {
    let result: { code: number; out: string };
    try {
      const { stdout, stderr } = await execFileAsync(process.execPath, [join(ROOT, 'scripts', 'gen-config-reference.mjs'), '--check'], { cwd: ROOT });
      result = { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      result = { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
    expect(result.code, `${result.out}\nregenerate with: node scripts/gen-config-reference.mjs`).toBe(0);
  });

  it('documents every CRD field and every chart value', () => {
    const text = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
    for (const needle of [
      '`spec.tokenHash`',
      '`spec.secretRef.key` (required)',
      '`spec.spendLimits.perToken[].usd` (required)',
      '`gateway.envoy.settings.providers`',
      '`redis.external.tls.caSecret`',
      '`operator.watchNamespace`',
    ]) {
      expect(text).toContain(needle);
    }
  });
});

describe('values.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);

  it('is a draft-07 schema that refuses unknown top-level keys', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.additionalProperties).toBe(false);
  });

  it.each(valueSets().map((s) => [s.name, s] as const))('accepts the %s values', (_name, set) => {
    const values = parse(readFileSync(set.file ?? join(CHART, 'values.yaml'), 'utf8')) as unknown;
    // A fixture is merged over values.yaml by helm; alone it must still only use known keys.
    const ok = set.file ? validatePartial(schema, values) : validate(values);
    expect(ok, JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses a misspelt key deep inside', () => {
    const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as { gateway: { envoy: { settings: Record<string, unknown> } } };
    values.gateway.envoy.settings.bufferLimitMB = 48;
    expect(validate(values)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain('bufferLimitMB');
  });

  it('gateway.envoy.settings has exactly the gw envoy-config settings the chart does not own', () => {
    type Props = { properties: Record<string, Props> };
    const settings = (schema.properties as Record<string, Props>).gateway!.properties.envoy!.properties.settings!.properties;
    // The chart sets these itself: the sidecar socket (never a TCP address), the prefix and the body limit it also gives the processor,
    // and Envoy's tracer from the otel section.
    const owned = ['processorSocket', 'processorAddress', 'pathPrefix', 'maxBodyMb', 'tracingCollector', 'tracingCollectorTls', 'tracingServiceName', 'tracingSamplingPercent'];
    expect(Object.keys(settings).sort()).toEqual(VALUE_KEYS.filter((k) => !owned.includes(k)).sort());
  });
});

/** Validates a fixture on its own: every key must exist, but required keys may come from values.yaml. */
function validatePartial(schema: Record<string, unknown>, values: unknown): boolean {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'required') out[k] = strip(v);
    return out;
  };
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(strip(schema) as Record<string, unknown>);
  const ok = validate(values);
  if (!ok) throw new Error(JSON.stringify(validate.errors));
  return ok;
}

describe('Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(join(CHART, 'dashboards', 'model-gateway.json'), 'utf8')) as { panels: { type: string; title: string; targets?: { expr: string }[] }[] };
  const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

  /** Metric names the processes export, read from their prom-client definitions. */
  function exportedMetrics(): Set<string> {
    const names = new Set<string>();
    for (const file of ['src/observability/metrics.ts', 'src/operator/operator-metrics.ts']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/name:\s*'(gw_[a-z0-9_]+)'/g)) names.add(match[1] as string);
    }
    return names;
  }

  it('queries only metrics the gateway and operator export', () => {
    const exported = exportedMetrics();
    expect(exported.size).toBeGreaterThan(10);
    for (const { panel, expr } of exprs) {
      for (const match of expr.matchAll(/\b(gw_[a-z0-9_]+)/g)) {
        const name = (match[1] as string).replace(/_(bucket|sum|count)$/, '');
        expect(exported.has(name), `panel "${panel}" queries ${match[1]}, which nothing exports`).toBe(true);
      }
    }
  });

  it('has the panels the platform team asked for', () => {
    const used = (metric: string): boolean => exprs.some((e) => e.expr.includes(metric));
    for (const metric of [
      'gw_requests_total',
      'gw_tokens_total',
      'gw_cost_usd_total',
      'gw_time_to_first_byte_seconds_bucket',
      'gw_requests_in_flight',
      'gw_seat_window_exhausted_total',
      'gw_redactions_total',
    ]) {
      expect(used(metric), metric).toBe(true);
    }
    expect(
      exprs.some((e) => /fault!=""/.test(e.expr) && /by \(fault\)/.test(e.expr)),
      'errors by fault',
    ).toBe(true);
    expect(
      exprs.some((e) => e.expr.includes('gw_tokens_total') && /by \(company, model\)/.test(e.expr)),
      'tokens by company and model',
    ).toBe(true);
    expect(
      exprs.some((e) => e.expr.includes('gw_cost_usd_total') && /by \(company, model\)/.test(e.expr)),
      'cost by company and model',
    ).toBe(true);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const ignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());

  it('builds in a first stage, then runs only production dependencies, dist, crds and proto as a non-root user', () => {
    expect(dockerfile).toMatch(/npm run build/);
    expect(dockerfile).toMatch(/npm ci[^\n]*--omit=dev/);
    for (const dir of ['dist', 'crds', 'proto']) expect(dockerfile).toMatch(new RegExp(`COPY [^\\n]*${dir}`));
    expect(dockerfile).toMatch(/^USER \d+:\d+$/m);
    // node's own flags may stand before the program (NODE_OPTIONS is the chart's, for the heap size).
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", (?:"--[^"]+", )*"\/app\/dist\/cli\/main\.js"\]$/m);
    expect(dockerfile).not.toMatch(/^ENV NODE_OPTIONS/m);
  });

  it('keeps local builds, dependencies and secrets out of the build context', () => {
    for (const entry of ['node_modules', 'dist', '.git', '.env']) expect(ignore).toContain(entry);
  });
});
