import { ConfigError } from '../config/load-resources.js';
import { readServeConfig } from '../config/serve-config.js';
import { createLogger } from '../observability/logger.js';
import { runServe } from '../serve/run-serve.js';
import type { CliIo } from './io.js';

export async function runServeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let config;
  try {
    config = readServeConfig(argv, io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`gw serve: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  let gateway;
  try {
    gateway = await runServe(config, { logger });
  } catch (error) {
    io.stderr.write(`gw serve: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  logger.info({ url: gateway.url, admin: gateway.adminUrl, state: gateway.state.kind, prefix: config.pipeline.pathPrefix }, 'gateway listening');
  io.stdout.write(
    [
      `gw serve: listening on ${gateway.url}${config.pipeline.pathPrefix} (also at the root), admin on ${gateway.adminUrl}`,
      `  curl ${gateway.url}${config.pipeline.pathPrefix}/v1/messages -H "authorization: Bearer $GW_TOKEN" -H "anthropic-version: 2023-06-01" \\`,
      `       -H "content-type: application/json" -d '{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}'`,
      `  ANTHROPIC_BASE_URL=${gateway.url}${config.pipeline.pathPrefix} ANTHROPIC_AUTH_TOKEN=$GW_TOKEN claude`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      logger.info('shutting down: finishing requests in flight');
      void gateway.stop().then(resolve, resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    process.on('SIGHUP', () => {
      gateway.reload().then(
        () => logger.info('configuration reloaded'),
        (error: unknown) => logger.error({ detail: error instanceof Error ? error.message : String(error) }, 'reload failed; the previous configuration stays'),
      );
    });
  });
  return 0;
}
