/**
 * Request lines wait in memory for their batch (src/observability/logger.ts); whatever way the
 * process ends short of SIGKILL, the lines logged before are on stdout. Each case runs the built
 * logger in a child process whose stdout is a pipe, as in a container.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/gateway-process.js';

const PRELUDE = `
const { createLogger } = await import('./dist/observability/logger.js');
const logger = createLogger('info');
for (let i = 0; i < 3; i++) logger.info({ n: i }, 'request');
`;

function linesOf(ending: string): { lines: Array<Record<string, unknown>>; status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', PRELUDE + ending], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  const lines = run.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, status: run.status, stderr: run.stderr };
}

describe('log lines still waiting for their batch', () => {
  it.each([
    ['the event loop runs dry', ''],
    ['process.exit()', 'process.exit(0);'],
    ['an uncaught exception', "throw new Error('boom');"],
    ['an unhandled rejection', "Promise.reject(new Error('boom'));"],
  ])('are written when the process ends by %s', (_name, ending) => {
    const { lines, stderr } = linesOf(ending);
    expect(
      lines.map((l) => l.n),
      stderr,
    ).toEqual([0, 1, 2]);
  });

  it('are written after the flush delay while the process lives on, without waiting for a full batch', () => {
    const { lines, status, stderr } = linesOf(`
      await new Promise((r) => setTimeout(r, 400));
      // What reached stdout by now is what the timer wrote; the exit hook must not be what wrote it.
      process.stderr.write('alive');
      process.kill(process.pid, 'SIGKILL');
    `);
    expect(status).toBeNull();
    expect(stderr).toContain('alive');
    expect(lines.map((l) => l.n)).toEqual([0, 1, 2]);
  });
});
