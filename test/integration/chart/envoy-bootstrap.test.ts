/**
 * The Envoy bootstrap the chart puts in its ConfigMap is the document
 * `gw envoy-config` renders for the same settings (parsed YAML, deep-equal),
 * and it passes the same strict go-control-plane validation
 * (test/go/cmd/envoy-validate). The settings are worked out here from the
 * values alone, so a chart that ignored a value would fail as well as one
 * whose template drifted from src/envoy/bootstrap.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ensureGoTool, GO_BUILD_TIMEOUT_MS, runGoTool } from '../../support/go-tools.js';
import { ensureHelm } from '../../support/kube-apiserver.js';
import {
  CHART,
  expectedEnvoySettings,
  find,
  FULLNAME,
  HELM_TIMEOUT_MS,
  removeHelmHome,
  renderChart,
  requireBuiltCli,
  RELEASE,
  runGw,
  runHelm,
  TOOL_TIMEOUT_MS,
  valueSets,
  type Manifest,
} from './chart-support.js';

const NAMESPACE = 'gw-system';
let dir: string;

beforeAll(async () => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), 'mg-chart-envoy-'));
  await ensureHelm();
  await ensureGoTool('envoy-validate');
}, TOOL_TIMEOUT_MS + GO_BUILD_TIMEOUT_MS);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  removeHelmHome();
});

/* eslint-disable @typescript-eslint/no-explicit-any -- reading rendered manifests */
type Any = any;

function containers(deployment: Manifest): Record<string, Any> {
  const list = (deployment as Any).spec.template.spec.containers as Any[];
  return Object.fromEntries(list.map((c) => [c.name, c]));
}

describe.each(valueSets().map((s) => [s.name, s] as const))('value set %s', (name, set) => {
  let configMap: Manifest;
  let deployment: Manifest;

  beforeAll(async () => {
    const manifests = await renderChart(set, NAMESPACE);
    configMap = find(manifests, 'ConfigMap', `${FULLNAME}-gateway`);
    deployment = find(manifests, 'Deployment', `${FULLNAME}-gateway`);
  }, HELM_TIMEOUT_MS);

  it('publishes the settings the values call for', () => {
    const data = (configMap as Any).data as Record<string, string>;
    expect(parse(data['gw-envoy-config-values.yaml'] as string)).toEqual(expectedEnvoySettings(set));
  });

  it('equals what `gw envoy-config --values` renders for those settings', async () => {
    const valuesFile = join(dir, `${name}.values.yaml`);
    writeFileSync(valuesFile, stringify(expectedEnvoySettings(set)));
    const generated = join(dir, `${name}.generated.yaml`);
    const res = await runGw(['envoy-config', '--values', valuesFile, '--out', generated]);
    expect(res.code, res.stderr).toBe(0);
    const chart = parse((configMap as Any).data['envoy.yaml']);
    expect(chart).toEqual(parse(readFileSync(generated, 'utf8')));
  });

  it('passes the strict go-control-plane validation', async () => {
    const file = join(dir, `${name}.chart-envoy.yaml`);
    writeFileSync(file, (configMap as Any).data['envoy.yaml']);
    const result = await runGoTool('envoy-validate', [file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${file}: ok`);
  });

  it('wires the pod the way the bootstrap expects', () => {
    const settings = expectedEnvoySettings(set) as Any;
    const { envoy, processor } = containers(deployment);
    const args = processor.args as string[];
    // The processor serves the socket Envoy's gw_extproc cluster dials, with the same prefix and body limit.
    expect(args.slice(0, 3)).toEqual(['extproc', '--socket', settings.processorSocket]);
    expect(args[args.indexOf('--max-body-mb') + 1]).toBe(String(settings.maxBodyMb));
    if (settings.pathPrefix) expect(args[args.indexOf('--prefix') + 1]).toBe(settings.pathPrefix);
    else expect(args).not.toContain('--prefix');
    for (const c of [envoy, processor]) {
      expect(c.volumeMounts.find((m: Any) => m.name === 'socket').mountPath).toBe('/var/run/gw');
    }
    expect(envoy.args).toEqual(expect.arrayContaining(['--config-path', '/etc/envoy/envoy.yaml']));
    const ports = Object.fromEntries((envoy.ports as Any[]).map((p) => [p.name, p.containerPort]));
    expect(ports).toEqual({ http: settings.listenPort, 'envoy-admin': settings.adminPort });
    // The drain script talks to the same admin port.
    expect(processor.lifecycle.preStop.exec.command[2]).toMatch(new RegExp(`:${settings.adminPort}$`));
  });

  it('rolls the pods when the bootstrap changes', () => {
    const text = ((configMap as Any).data['envoy.yaml'] as string).replace(/\n$/, '');
    const annotation = (deployment as Any).spec.template.metadata.annotations['checksum/envoy-config'];
    expect(annotation).toBe(createHash('sha256').update(text).digest('hex'));
  });
});

describe('settings gw envoy-config refuses, the chart refuses too', () => {
  const cases: [string, string[], RegExp][] = [
    ['a buffer no larger than the body limit', ['--set', 'gateway.maxBodyMb=32', '--set', 'gateway.envoy.settings.bufferLimitMb=32'], /bufferLimitMb .* must be larger/],
    ['two providers that map to one cluster name', ['--set-json', 'gateway.envoy.settings.providers=["https://a-b.example.com","https://a.b.example.com"]'], /both map to cluster gw_https_a_b_example_com_443/],
    ['a provider URL with credentials', ['--set-json', 'gateway.envoy.settings.providers=["https://user:pw@api.example.com"]'], /must not carry credentials|does not match pattern/],
  ];

  it.each(cases)('%s', async (_what, flags, message) => {
    const res = await runHelm(['template', RELEASE, CHART, '--namespace', NAMESPACE, ...flags]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(message);
    // The same values through the generator (flags mapped to its keys) fail as well.
    const values: Record<string, unknown> = { processorSocket: '/var/run/gw/extproc.sock' };
    for (let i = 0; i < flags.length; i += 2) {
      const [key, raw] = (flags[i + 1] as string).split(/=(.*)/s) as [string, string];
      const leaf = key.split('.').pop() as string;
      values[leaf] = flags[i] === '--set-json' ? JSON.parse(raw) : Number(raw);
    }
    const file = join(dir, `refused-${Object.keys(values).join('-')}.yaml`);
    writeFileSync(file, stringify(values));
    const gen = await runGw(['envoy-config', '--values', file]);
    expect(gen.code, gen.stdout).toBe(2);
  }, HELM_TIMEOUT_MS);
});
