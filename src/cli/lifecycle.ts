import type { Logger } from '../observability/logger.js';

/** Run until SIGTERM/SIGINT, then stop gracefully; SIGHUP re-reads the configuration file. */
export function runUntilSignalled(logger: Logger, service: { stop(): Promise<void>; reload(): Promise<void> }): Promise<void> {
  return new Promise<void>((resolve) => {
    const onHup = (): void => {
      service.reload().then(
        () => logger.info('configuration reloaded'),
        (error: unknown) => logger.error({ detail: error instanceof Error ? error.message : String(error) }, 'reload failed; the previous configuration stays'),
      );
    };
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      process.off('SIGHUP', onHup);
      logger.info('shutting down: finishing requests in flight');
      // Logs are written asynchronously: flush them before the process ends.
      const done = (): void => logger.flush(() => resolve());
      void service.stop().then(done, done);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    process.on('SIGHUP', onHup);
  });
}
