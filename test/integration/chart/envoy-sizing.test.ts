/**
 * Envoy sized from the pod's own limits, read as Envoy reads it: for each
 * CPU and memory setting, the chart is rendered, the Envoy container's
 * command line is parsed by the harness's model of Envoy's CLI (which
 * refuses what Envoy would), and the bootstrap the init container writes
 * from the published settings is read by the harness's overload manager.
 * Without --concurrency Envoy would start one worker per node CPU; without
 * the limit-derived heap ceiling it would shed nothing before an OOM kill.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseEnvoyCommandLine } from '../../support/envoy-harness/command-line.js';
import { readOverloadConfig } from '../../support/envoy-harness/overload.js';
import { ensureHelm } from '../../support/kube-apiserver.js';
import { find, FULLNAME, HELM_TIMEOUT_MS, removeHelmHome, renderChart, requireBuiltCli, runGw, TOOL_TIMEOUT_MS, type Manifest } from './chart-support.js';

const NAMESPACE = 'gw-system';
const MIB = 1024 * 1024;
let dir: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), 'mg-chart-sizing-'));
  await ensureHelm();
}, TOOL_TIMEOUT_MS);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  removeHelmHome();
});

/* eslint-disable @typescript-eslint/no-explicit-any -- reading rendered manifests */
type Any = any;

async function render(resources: unknown): Promise<{ envoy: Any; deployment: Any; configMap: Any }> {
  const manifests: Manifest[] = await renderChart({ name: 'defaults', file: null }, NAMESPACE, ['--set-json', `gateway.envoy.resources=${JSON.stringify(resources)}`]);
  const deployment = find(manifests, 'Deployment', `${FULLNAME}-gateway`) as Any;
  const envoy = (deployment.spec.template.spec.containers as Any[]).find((c) => c.name === 'envoy');
  return { envoy, deployment, configMap: find(manifests, 'ConfigMap', `${FULLNAME}-gateway`) as Any };
}

describe('Envoy workers from the container CPU limit, as Envoy parses its command line', () => {
  // [what, resources, workers]. Helm deep-merges maps, so a removed limit is set to null.
  const cases: Array<[string, unknown, number]> = [
    ['a fractional limit rounds up', { limits: { cpu: '1500m', memory: '1Gi' } }, 2],
    ['a sub-core limit is one worker', { limits: { cpu: '500m', memory: '1Gi' } }, 1],
    ['a whole-core limit', { limits: { cpu: '3', memory: '1Gi' } }, 3],
    ['a decimal limit rounds up', { limits: { cpu: 3.5, memory: '1Gi' } }, 4],
    ['no CPU limit: the request', { requests: { cpu: '2500m' }, limits: { cpu: null, memory: '1Gi' } }, 3],
  ];

  it.each(cases)(
    '%s',
    async (_what, resources, workers) => {
      const { envoy } = await render(resources);
      expect(envoy.command).toEqual(['/usr/local/bin/envoy']);
      const cli = parseEnvoyCommandLine(envoy.args as string[]);
      expect(cli.concurrency).toBe(workers);
      expect(cli.configPath).toBe('/etc/envoy/envoy.yaml');
    },
    HELM_TIMEOUT_MS,
  );

  it(
    'neither a CPU limit nor a request: 2 workers, never one per node CPU',
    async () => {
      const { envoy } = await render({ requests: { cpu: null }, limits: { cpu: null } });
      expect(parseEnvoyCommandLine(envoy.args as string[]).concurrency).toBe(2);
    },
    HELM_TIMEOUT_MS,
  );

  it('the CLI model refuses what Envoy refuses (so the checks above can fail)', () => {
    expect(() => parseEnvoyCommandLine(['--config-path', '/x', '--concurency', '2'])).toThrow(/unknown command line argument --concurency/);
    expect(() => parseEnvoyCommandLine(['--concurrency', '1.5'])).toThrow(/unsigned integer/);
    expect(() => parseEnvoyCommandLine(['--drain-strategy', 'slow'])).toThrow(/one of/);
  });
});

describe("the overload manager's heap ceiling from the container memory limit, as the harness reads it", () => {
  const cases: Array<[string, number]> = [
    ['256Mi', 256],
    ['1Gi', 1024],
    ['3Gi', 3072],
  ];

  it.each(cases)(
    'memory limit %s',
    async (memory, mib) => {
      const { configMap, deployment } = await render({ limits: { cpu: '2', memory } });
      const init = (deployment.spec.template.spec.initContainers as Any[]).find((c) => c.name === 'envoy-config');
      const values = join(dir, `${memory}.values.yaml`);
      writeFileSync(values, configMap.data['gw-envoy-config-values.yaml']);
      const out = join(dir, `${memory}.envoy.yaml`);
      const args = (init.args as string[]).map((a) => (a.endsWith('gw-envoy-config-values.yaml') ? values : a === '/etc/envoy/envoy.yaml' ? out : a));
      const res = await runGw(args);
      expect(res.code, res.stderr).toBe(0);
      const overload = readOverloadConfig((parse(readFileSync(out, 'utf8')) as Any).overload_manager);
      expect(overload.maxHeapBytes).toBe(Math.floor(mib * MIB * 0.8));
      // Load is shed before the heap ceiling, which is itself below the container limit.
      const stop = overload.thresholds.get('envoy.overload_actions.stop_accepting_requests') as number;
      expect(stop).toBeLessThan(1);
      expect(stop * (overload.maxHeapBytes as number)).toBeLessThan(mib * MIB);
    },
    HELM_TIMEOUT_MS,
  );
});
