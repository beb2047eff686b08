/**
 * Bench helper processes must stop by themselves: on SIGTERM/SIGINT, when the
 * orchestrator that started them is gone, and at a fixed deadline at the latest.
 */
export function stopByItself(stop, maxSeconds = 1800) {
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  setTimeout(stop, maxSeconds * 1000).unref();
  const parent = process.ppid;
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      stop();
    }
  }, 1000).unref();
}
