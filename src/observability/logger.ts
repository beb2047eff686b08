import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * One logger for the process. Fields that could carry a credential are
 * censored by path as a second line of defence: the code never passes
 * headers or bodies to the logger in the first place.
 */
export function createLogger(level: string = process.env.GW_LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { svc: 'gw' },
    redact: {
      paths: ['authorization', 'headers.authorization', 'headers["x-api-key"]', 'secret', 'token', '*.secret', '*.token', 'body'],
      censor: '[censored]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // Asynchronous writes: the per-request line must not block the event loop on stdout.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}
