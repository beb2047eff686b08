import pino, { type Logger } from 'pino';

export type { Logger };

/** Lines are held until this many bytes are waiting (about ten request lines)… */
const BATCH_BYTES = 4096;
/** …or until this long after the first of them, whichever comes first. */
export const LOG_FLUSH_MS = 100;

/**
 * stdout written in batches. One write per log line cost gw extproc a tenth
 * of its busy time under load (a thread-pool round trip and a system call per
 * request), so lines wait in memory until 4 KiB have gathered or 100 ms have
 * passed since the first of them. Nothing is lost at the end: the shutdown
 * path flushes (`logger.flush`), and pino's exit hook writes what is left
 * synchronously on any exit, a crash included. Only SIGKILL can lose the last
 * 100 ms of lines. The timer is armed only while lines wait: an idle process
 * never wakes for it.
 */
function batchedStdout(): pino.DestinationStream & { flush(cb?: (error?: Error) => void): void; flushSync(): void } {
  const sink = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
  let timer: NodeJS.Timeout | null = null;
  const flushNow = (): void => {
    timer = null;
    sink.flush();
  };
  return {
    write(line: string): void {
      sink.write(line);
      if (timer === null) {
        timer = setTimeout(flushNow, LOG_FLUSH_MS);
        timer.unref();
      }
    },
    flush(cb?: (error?: Error) => void): void {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      sink.flush(cb);
    },
    flushSync(): void {
      sink.flushSync();
    },
  };
}

/**
 * One logger for the process. Fields that could carry a credential are
 * censored by path as a second line of defence: the code never passes
 * headers or bodies to the logger in the first place.
 */
export const CENSORED_PATHS: readonly string[] = Object.freeze(['authorization', 'headers.authorization', 'headers["x-api-key"]', 'secret', 'token', '*.secret', '*.token', 'body']);
const CENSOR = '[censored]';

export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { svc: 'gw' },
    redact: { paths: [...CENSORED_PATHS], censor: CENSOR },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // Asynchronous, batched writes: the per-request line must not block the event loop on stdout.
  return pino(options, destination ?? batchedStdout());
}

/**
 * The same logger without censoring by path, for the one line whose keys are fixed in code: the request line
 * (pipeline-events.ts). None of its keys is a censored path or has children (its unit test compares the two), so
 * censoring could never change it, and walking the paths on every request cost about 8 µs and 8 KB of garbage
 * (s7 allocation profile). Every other line keeps the censoring.
 */
export function fixedKeysLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [], censor: CENSOR } });
}
