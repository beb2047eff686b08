import { readFileSync } from 'node:fs';
import { loadResources } from '../../src/config/load-resources.js';
import { PROVIDER_DEFAULTS } from '../../src/models/providers.js';
import { clusterNameForOrigin } from '../../src/upstream/cluster-name.js';
import { startEnvoyHarness, type EnvoyHarness, type EnvoyHarnessOptions } from './envoy-harness/index.js';
import { spawnGw, type GatewayProcess, type StartOptions } from './gateway-process.js';

/**
 * The Envoy data plane for the shared e2e suite: `gw extproc` as its own
 * process, and the Envoy-faithful harness in front of it configured as our
 * generated Envoy config is (BUFFERED request body, mode override allowed,
 * one cluster per provider address, message timeout in seconds).
 */
export async function startExtProcPlane(file: string, options: StartOptions & { harness?: Partial<EnvoyHarnessOptions> } = {}): Promise<GatewayProcess & { readonly harness: EnvoyHarness }> {
  const processor = await spawnGw('extproc', file, options);
  const env = { ...process.env, ...(options.env ?? {}) };
  const resources = loadResources(readFileSync(file, 'utf8'), env, file);
  const clusters: Record<string, string> = {};
  for (const credential of resources.credentials) {
    const base = credential.spec.baseUrl ?? PROVIDER_DEFAULTS[credential.spec.provider].baseUrl;
    if (!base) continue;
    const origin = new URL(base).origin;
    clusters[clusterNameForOrigin(origin)] = origin;
  }
  const port = processor.output.map((l) => /^gw extproc: listening on [^:]+:(\d+)/.exec(l)?.[1]).find((p) => p !== undefined);
  if (!port) throw new Error(`cannot read the processor's port from:\n${processor.output.join('\n')}`);
  const names = Object.keys(clusters);
  const harness = await startEnvoyHarness({
    processor: `127.0.0.1:${port}`,
    clusters,
    ...(names[0] !== undefined ? { defaultCluster: names[0] } : {}),
    allowModeOverride: true,
    messageTimeoutMs: 10_000,
    // Extra harness settings a test needs (route idle timeout, say); none by default.
    ...(options.harness ?? {}),
  });
  let harnessClosed: Promise<void> | null = null;
  const closeHarness = (): Promise<void> => (harnessClosed ??= harness.close());
  return {
    harness,
    url: harness.url,
    adminUrl: processor.adminUrl,
    child: processor.child,
    output: processor.output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (signal === 'SIGKILL') {
        const code = await processor.stop(signal);
        await closeHarness();
        return code;
      }
      await closeHarness();
      return processor.stop(signal);
    },
  };
}
