import pino, { type Logger } from 'pino';

export type { Logger };

/** Lines are held until this many bytes are waiting (about ten request lines)… */
const BATCH_BYTES = 4096;
/** …or until this long after the first of them, whichever comes first. */
export const LOG_FLUSH_MS = 100;

/** Sinks still holding lines when the process exits. */
const atExit = new Set<{ flushSync(): void }>();

/**
 * pino flushes a destination at exit only when it writes asynchronously; ours holds lines in either
 * case. 'exit' also comes after an uncaught exception and process.exit(): those lines are written too.
 */
function flushedAtExit(sink: { flushSync(): void }): void {
  if (atExit.size === 0) {
    process.once('exit', () => {
      for (const s of atExit) {
        try {
          s.flushSync();
        } catch {
          // stdout is gone (a closed pipe): nothing left to write to.
        }
      }
    });
  }
  atExit.add(sink);
}

/**
 * stdout written in batches, each batch with one synchronous write. One write per log line cost gw
 * extproc a tenth of its busy time under load, so lines wait in memory until 4 KiB have gathered or
 * 100 ms have passed since the first of them. The batch is written synchronously: an asynchronous
 * write goes through libuv's thread pool, and waking a pool thread and being woken back cost more
 * than the write itself (on the bench machine about 45 µs of the event loop's time per write
 * against 4 µs for the whole synchronous write; gw serve used 5 % less CPU per non-streaming request
 * with it, docs/benchmarks.md). It is pino's own default and what Node does for process.stdout on a
 * pipe or a file; a reader that stops reading stdout altogether stalls the process, as it would any
 * process logging to stdout. Nothing is lost at the end: the shutdown path flushes (`logger.flush`),
 * and an exit hook writes what is left on any exit, a crash included. Only SIGKILL can lose the
 * last 100 ms of lines. The timer is armed only while lines wait: an idle process never wakes for it.
 */
function batchedStdout(): pino.DestinationStream & { flush(cb?: (error?: Error) => void): void; flushSync(): void } {
  const sink = pino.destination({ dest: 1, sync: true, minLength: BATCH_BYTES });
  flushedAtExit(sink);
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
  // Batched writes: one system call per 4 KiB of lines, not one per request.
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
