/**
 * One Envoy model: the chart publishes only the settings of `gw envoy-config`
 * and an init container of the gw image renders the bootstrap from them at
 * pod start. For every value set this test runs the init container's own
 * command on the settings the chart rendered, and validates the result with
 * the strict go-control-plane validator (test/go/cmd/envoy-validate). The
 * settings are worked out here from the values alone, so a chart that
 * ignored a value fails as well.
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

  it('publishes the settings the values call for, and no bootstrap of its own', () => {
    expect(Object.keys((configMap as Any).data)).not.toContain('envoy.yaml');
    const data = (configMap as Any).data as Record<string, string>;
    expect(parse(data['gw-envoy-config-values.yaml'] as string)).toEqual(expectedEnvoySettings(set));
  });

  /** Runs the init container's command as rendered, with its paths pointed at temp files. */
  async function renderBootstrap(): Promise<string> {
    const init = ((deployment as Any).spec.template.spec.initContainers as Any[]).find((c) => c.name === 'envoy-config');
    const args = init.args as string[];
    expect(args).toEqual(['envoy-config', '--values', '/etc/gw/envoy-settings/gw-envoy-config-values.yaml', '--out', '/etc/envoy/envoy.yaml']);
    const valuesFile = join(dir, `${name}.values.yaml`);
    writeFileSync(valuesFile, (configMap as Any).data['gw-envoy-config-values.yaml']);
    const out = join(dir, `${name}.envoy.yaml`);
    const res = await runGw(args.map((a) => (a === args[2] ? valuesFile : a === args[4] ? out : a)));
    expect(res.code, res.stderr).toBe(0);
    return out;
  }

  it("renders, through the init container's command, a bootstrap that passes the strict go-control-plane validation", async () => {
    const file = await renderBootstrap();
    const result = await runGoTool('envoy-validate', [file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${file}: ok`);
    // Envoy reads the file the init container wrote, from the volume both mount.
    const spec = (deployment as Any).spec.template.spec;
    const init = (spec.initContainers as Any[]).find((c) => c.name === 'envoy-config');
    const { envoy } = containers(deployment);
    expect(init.volumeMounts.find((m: Any) => m.mountPath === '/etc/envoy').name).toBe('envoy-config');
    expect(envoy.volumeMounts.find((m: Any) => m.mountPath === '/etc/envoy').name).toBe('envoy-config');
    expect(spec.volumes.find((v: Any) => v.name === 'envoy-config').emptyDir).toBeDefined();
    expect(init.image).toBe(containers(deployment).processor.image);
  });

  it('wires the pod the way the bootstrap expects', async () => {
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
    // No admin port: Envoy's admin interface is on loopback; probes and stats use the ready listener.
    expect(ports).toEqual({ http: settings.listenPort, 'envoy-ready': settings.readyPort });
    const bootstrap = parse(readFileSync(await renderBootstrap(), 'utf8')) as Any;
    expect(bootstrap.admin.address.socket_address.address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(bootstrap.static_resources.listeners[1].address.socket_address.port_value).toBe(settings.readyPort);
  });

  it("sizes Envoy from the container's limits: workers from the CPU limit, the overload manager from the memory limit", async () => {
    const { envoy } = containers(deployment);
    const cpu = String(envoy.resources.limits.cpu);
    const workers = cpu.endsWith('m') ? Math.max(1, Math.ceil(Number(cpu.slice(0, -1)) / 1000)) : Math.max(1, Math.ceil(Number(cpu)));
    const args = envoy.args as string[];
    expect(args[args.indexOf('--concurrency') + 1]).toBe(String(workers));
    const bootstrap = parse(readFileSync(await renderBootstrap(), 'utf8')) as Any;
    const settings = expectedEnvoySettings(set) as Any;
    expect(bootstrap.overload_manager.resource_monitors[0].typed_config.max_heap_size_bytes).toBe(Math.floor(settings.memoryLimitMb * 1024 * 1024 * 0.8));
  });

  it('rolls the pods when the Envoy settings change', () => {
    const text = ((configMap as Any).data['gw-envoy-config-values.yaml'] as string).replace(/\n$/, '');
    const annotation = (deployment as Any).spec.template.metadata.annotations['checksum/envoy-config'];
    expect(annotation).toBe(createHash('sha256').update(text).digest('hex'));
  });
});

describe('settings the generator refuses, the chart refuses too', () => {
  const cases: [string, string[], RegExp][] = [
    ['an idle timeout below 10 minutes', ['--set', 'gateway.envoy.settings.streamIdleTimeoutSeconds=300'], /streamIdleTimeoutSeconds/],
    ['an admin address off loopback', ['--set-json', 'gateway.envoy.settings.adminAddress="0.0.0.0"'], /adminAddress/],
    ['a provider URL with credentials', ['--set-json', 'gateway.envoy.settings.providers=["https://user:pw@api.example.com"]'], /must not carry credentials|does not match pattern/],
  ];

  it.each(cases)(
    '%s',
    async (_what, flags, message) => {
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
    },
    HELM_TIMEOUT_MS,
  );
});
