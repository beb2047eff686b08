import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the bench, without types
import { imageRuntime, readImageRuntime } from '../../../bench/lib/image-runtime.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Runtime {
  nodeFlags: string[];
  env: Record<string, string>;
}

describe('the bench runs gw as the image does', () => {
  it("reads only the runtime stage, joins continued lines, and folds NODE_OPTIONS into node's flags", () => {
    const r = imageRuntime(
      [
        'FROM node:20 AS build',
        'ENV BUILD_ONLY=1',
        'ENTRYPOINT ["sh"]',
        'FROM node:20 AS runtime',
        'ENV A=1 B="two words" \\',
        '    C=3',
        'ENV NODE_OPTIONS=--max-old-space-size=64',
        'ENTRYPOINT ["node", "--x-flag", "--y=2", "/app/main.js", "--not-a-node-flag"]',
      ].join('\n'),
    ) as Runtime;
    expect(r.env).toEqual({ A: '1', B: 'two words', C: '3' });
    expect(r.nodeFlags).toEqual(['--x-flag', '--y=2', '--max-old-space-size=64']);
  });

  it('refuses an entrypoint that does not start node (its flags could not be read)', () => {
    expect(() => imageRuntime('FROM x\nENTRYPOINT ["/app/gw"]\n')).toThrow(/does not start node/);
  });

  it("takes from the Dockerfile flags that this node accepts, and glibc's malloc settings", () => {
    const { nodeFlags, env } = readImageRuntime(ROOT) as Runtime;
    expect(nodeFlags).toContain('--no-memory-reducer');
    expect(env.MALLOC_MMAP_THRESHOLD_).toMatch(/^\d+$/);
    const run = spawnSync(process.execPath, [...nodeFlags, '-e', '0'], { encoding: 'utf8', env: { ...process.env, ...env } });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
