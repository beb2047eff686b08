/**
 * Shared by the chart tests: the chart and its value sets, helm (built from
 * source by ensureHelm()), the rendered manifests, and the settings the
 * chart's Envoy bootstrap must equal `gw envoy-config` for.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { ensureHelm } from '../../support/kube-apiserver.js';

const execFileAsync = promisify(execFile);

export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const CHART = join(ROOT, 'charts', 'model-gateway');
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'chart-values');
export const GW_CLI = join(ROOT, 'dist', 'cli', 'main.js');
export const RELEASE = 'gw';
/** The chart's resource prefix for release "gw" (the release name does not contain the chart name). */
export const FULLNAME = 'gw-model-gateway';

/** helm and the API server may have to be built first (minutes on a cold cache); see test/support/kube-apiserver.ts. */
export const TOOL_TIMEOUT_MS = 45 * 60_000;
/** A single helm run on this loaded 2-core machine. */
export const HELM_TIMEOUT_MS = 120_000;

/** The value sets under test: the chart's defaults, then every file in test/fixtures/chart-values/. */
export interface ValueSet {
  readonly name: string;
  /** null for the defaults. */
  readonly file: string | null;
}

export function valueSets(): ValueSet[] {
  const files = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  return [{ name: 'defaults', file: null }, ...files.map((f) => ({ name: f.replace(/\.yaml$/, ''), file: join(FIXTURES, f) }))];
}

export interface HelmResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let helmHome: string | null = null;

/** Runs the helm that ensureHelm() built, with its state dirs in a temp dir; never throws. */
export async function runHelm(args: readonly string[]): Promise<HelmResult> {
  const helm = await ensureHelm();
  helmHome ??= mkdtempSync(join(tmpdir(), 'mg-chart-helm-'));
  try {
    const { stdout, stderr } = await execFileAsync(helm, [...args], {
      maxBuffer: 64 * 1024 * 1024,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: helmHome,
        HELM_CACHE_HOME: join(helmHome, 'cache'),
        HELM_CONFIG_HOME: join(helmHome, 'config'),
        HELM_DATA_HOME: join(helmHome, 'data'),
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string; message?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message ?? '' };
  }
}

export function removeHelmHome(): void {
  if (helmHome) rmSync(helmHome, { recursive: true, force: true });
  helmHome = null;
}

/** A rendered Kubernetes object (parsed YAML). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export function valuesArgs(set: ValueSet): string[] {
  return set.file ? ['--values', set.file] : [];
}

/** `helm template` of the chart for one value set; throws with helm's message when it fails. */
export async function renderChart(set: ValueSet, namespace: string, extra: readonly string[] = []): Promise<Manifest[]> {
  const res = await runHelm(['template', RELEASE, CHART, '--namespace', namespace, ...valuesArgs(set), ...extra]);
  if (res.code !== 0) throw new Error(`helm template (${set.name}) failed:\n${res.stderr}`);
  return parseManifests(res.stdout);
}

export function parseManifests(text: string): Manifest[] {
  const out: Manifest[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`rendered YAML does not parse: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as Manifest | null;
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

export function find(manifests: readonly Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return found;
}

type Json = Record<string, unknown>;

const isMap = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Helm's merge of a values file over the chart's values: maps merge, anything else replaces, null deletes. */
export function mergeValues(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = mergeValues(out[key] as Json, value);
    else out[key] = value;
  }
  return out;
}

/** The chart's values.yaml with a value set's file over it. */
export function effectiveValues(set: ValueSet): Json {
  const base = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Json;
  if (!set.file) return base;
  return mergeValues(base, (parse(readFileSync(set.file, 'utf8')) ?? {}) as Json);
}

/**
 * What `gw envoy-config --values` must get to render the chart's bootstrap,
 * worked out from the values alone (not read back from the chart): the
 * gateway.envoy.settings keys plus the three the chart owns.
 */
/** A Kubernetes memory quantity in whole MiB (what the chart gives the overload manager). */
function mebibytes(quantity: string): number {
  const match = /^([0-9.]+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!match) throw new Error(`not a memory quantity: ${quantity}`);
  const bytes: Record<string, number> = { '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  return Math.floor((Number(match[1]) * (bytes[match[2] ?? ''] as number)) / 1024 ** 2);
}

export function expectedEnvoySettings(set: ValueSet): Json {
  const values = effectiveValues(set);
  const gateway = values.gateway as Json;
  const envoy = gateway.envoy as Json;
  const otel = values.otel as Json;
  const sampling = otel.sampling as Json;
  const otelEnvoy = otel.envoy as Json;
  // With otel on, the chart points Envoy's tracer at the collector's OTLP/gRPC host:port.
  const tracing =
    otel.endpoint !== '' && otelEnvoy.enabled === true
      ? {
          tracingCollector: otelEnvoy.collector !== '' ? otelEnvoy.collector : new URL(otel.endpoint as string).host,
          tracingCollectorTls: (otel.endpoint as string).startsWith('https://'),
          tracingServiceName: 'gw-envoy',
          tracingSamplingPercent: (sampling.ratio as number) * 100,
        }
      : {};
  const limit = String(((envoy.resources as Json)?.limits as Json | undefined)?.memory ?? '');
  return {
    memoryLimitMb: limit === '' ? 1024 : mebibytes(limit),
    ...(envoy.settings as Json),
    ...tracing,
    processorSocket: '/var/run/gw/extproc.sock',
    pathPrefix: gateway.pathPrefix,
    maxBodyMb: gateway.maxBodyMb,
  };
}

export function requireBuiltCli(): void {
  if (!existsSync(GW_CLI)) throw new Error(`${GW_CLI} is missing: run \`npm run build\` (make test builds first)`);
}

/** Runs the built gw CLI; never throws. */
export async function runGw(args: readonly string[]): Promise<HelmResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [GW_CLI, ...args], { maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string; message?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message ?? '' };
  }
}
