import { generatedConfigHarnessOptions } from './envoy-harness/generated-config.js';
import { startEnvoyHarness, type EnvoyHarness, type EnvoyHarnessOptions } from './envoy-harness/index.js';
import { spawnGw, type GatewayProcess, type StartOptions } from './gateway-process.js';

/**
 * The Envoy data plane for the shared e2e suite: `gw extproc` as its own
 * process, and the Envoy-faithful harness in front of it configured as our
 * generated Envoy config is (BUFFERED request body, mode override allowed,
 * dynamic forward proxy clusters, 502 catch-all, message timeout in seconds).
 */
export async function startExtProcPlane(file: string, options: StartOptions & { harness?: Partial<EnvoyHarnessOptions> } = {}): Promise<GatewayProcess & { readonly harness: EnvoyHarness }> {
  const processor = await spawnGw('extproc', file, options);
  const port = processor.output.map((l) => /^gw extproc: listening on [^:]+:(\d+)/.exec(l)?.[1]).find((p) => p !== undefined);
  if (!port) throw new Error(`cannot read the processor's port from:\n${processor.output.join('\n')}`);
  const harness = await startEnvoyHarness({
    processor: `127.0.0.1:${port}`,
    // The generated bootstrap's routes: two dynamic forward proxy clusters and the
    // 502 catch-all; every provider address reaches Envoy through the processor.
    ...generatedConfigHarnessOptions(),
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
