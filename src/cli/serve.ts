import { ConfigError } from '../config/config-error.js';
import { readServeConfig, type ServeConfig } from '../config/serve-config.js';
import { createLogger } from '../observability/logger.js';
import type { CliIo } from './io.js';
import { runUntilSignalled } from './lifecycle.js';

function configOrExit(name: 'serve' | 'extproc', argv: readonly string[], io: CliIo): ServeConfig | null {
  try {
    return readServeConfig(argv, io.env, name);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`gw ${name}: ${error.message}\n`);
      return null;
    }
    throw error;
  }
}

/** `gw serve`: the one-machine data plane. */
export async function runServeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const config = configOrExit('serve', argv, io);
  if (!config) return 2;
  const logger = createLogger(config.logLevel);
  let gateway;
  try {
    // Each data plane loads only its own transport (the ext_proc protos cost memory gw serve never uses).
    const { runServe } = await import('../serve/run-serve.js');
    gateway = await runServe(config, { logger });
  } catch (error) {
    io.stderr.write(`gw serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const base = `${gateway.url}${config.pipeline.pathPrefix}`;
  logger.info({ url: gateway.url, admin: gateway.adminUrl, state: gateway.state.kind, prefix: config.pipeline.pathPrefix }, 'gateway listening');
  io.stdout.write(
    [
      `gw serve: listening on ${base} (also at the root), admin on ${gateway.adminUrl}, state: ${gateway.state.kind}`,
      `  curl ${base}/v1/messages -H "authorization: Bearer $GW_TOKEN" -H "anthropic-version: 2023-06-01" \\`,
      `       -H "content-type: application/json" -d '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}'`,
      `  ANTHROPIC_BASE_URL=${base} ANTHROPIC_AUTH_TOKEN=$GW_TOKEN claude`,
      '',
    ].join('\n'),
  );
  await runUntilSignalled(logger, gateway);
  return 0;
}

/** `gw extproc`: the decisions behind Envoy, over gRPC (TCP or a Unix socket). */
export async function runExtProcCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const config = configOrExit('extproc', argv, io);
  if (!config) return 2;
  const logger = createLogger(config.logLevel);
  let processor;
  try {
    const { runExtProc } = await import('../extproc/run-extproc.js');
    processor = await runExtProc(config, { logger });
  } catch (error) {
    io.stderr.write(`gw extproc: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  logger.info({ address: processor.address, admin: processor.adminUrl, state: processor.state.kind, grpcTransport: config.grpcTransport }, 'ext_proc listening');
  io.stdout.write(`gw extproc: listening on ${processor.address}, admin on ${processor.adminUrl}, state: ${processor.state.kind}\n`);
  await runUntilSignalled(logger, processor);
  return 0;
}
