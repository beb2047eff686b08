/**
 * The processor's V8 heap sized from its container's memory limit, read as Node reads it: the chart is
 * rendered for each setting, and the NODE_OPTIONS it gives the container is handed to a real node, whose
 * heap limit is then read back. Without it V8 sizes its heap from the memory it sees, which inside a
 * container limit can be more than the container may use.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureHelm } from '../../support/kube-apiserver.js';
import { find, FULLNAME, HELM_TIMEOUT_MS, removeHelmHome, renderChart, TOOL_TIMEOUT_MS, type Manifest } from './chart-support.js';

const NAMESPACE = 'gw-system';
const MIB = 1024 * 1024;

beforeAll(async () => {
  await ensureHelm();
}, TOOL_TIMEOUT_MS);

afterAll(() => {
  removeHelmHome();
});

/* eslint-disable @typescript-eslint/no-explicit-any -- reading rendered manifests */
type Any = any;

async function processorEnv(values: Record<string, unknown>): Promise<Map<string, string>> {
  const args = Object.entries(values).flatMap(([k, v]) => ['--set-json', `${k}=${JSON.stringify(v)}`]);
  const manifests: Manifest[] = await renderChart({ name: 'defaults', file: null }, NAMESPACE, args);
  const deployment = find(manifests, 'Deployment', `${FULLNAME}-gateway`) as Any;
  const processor = (deployment.spec.template.spec.containers as Any[]).find((c) => c.name === 'processor');
  return new Map(((processor.env ?? []) as Any[]).filter((e) => typeof e.value === 'string').map((e) => [e.name as string, e.value as string]));
}

/** V8's heap limit in a node started with these NODE_OPTIONS (as the container's node would be). */
function heapLimitMiB(nodeOptions: string): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
  expect(run.stderr).toBe('');
  return Number(run.stdout) / MIB;
}

describe('the processor container: V8 old space from its memory limit, as node reads NODE_OPTIONS', () => {
  // [what, memory limit, heapPercentOfLimit, old space in MiB]
  const cases: Array<[string, string, number | undefined, number]> = [
    ['1Gi at the default 75 %', '1Gi', undefined, 768],
    ['512Mi at 50 %', '512Mi', 50, 256],
    ['a decimal limit in SI units', '1.5G', undefined, 1072],
    ['2Gi at 90 %', '2Gi', 90, 1843],
  ];

  it.each(cases)(
    '%s',
    async (_what, memory, percent, oldSpaceMiB) => {
      const env = await processorEnv({ 'gateway.processor.resources': { limits: { cpu: '2', memory } }, ...(percent === undefined ? {} : { 'gateway.processor.heapPercentOfLimit': percent }) });
      const options = env.get('NODE_OPTIONS');
      expect(options).toBe(`--max-old-space-size=${oldSpaceMiB}`);
      // V8's limit is the old space plus the young generation: above the setting, and below the container's limit.
      const limit = heapLimitMiB(options as string);
      expect(limit).toBeGreaterThanOrEqual(oldSpaceMiB);
      expect(limit).toBeLessThan(oldSpaceMiB + 64);
    },
    HELM_TIMEOUT_MS,
  );

  it(
    'sets no size without a memory limit (V8 then sizes its heap itself)',
    async () => {
      const env = await processorEnv({ 'gateway.processor.resources': { limits: { cpu: '2', memory: null } } });
      expect(env.has('NODE_OPTIONS')).toBe(false);
    },
    HELM_TIMEOUT_MS,
  );

  it(
    'refuses a limit that is not a memory quantity, naming the value',
    async () => {
      await expect(processorEnv({ 'gateway.processor.resources': { limits: { memory: '1GB' } } })).rejects.toThrow(/gateway\.processor\.resources\.limits\.memory: "1GB" is not a memory quantity/);
    },
    HELM_TIMEOUT_MS,
  );
});
