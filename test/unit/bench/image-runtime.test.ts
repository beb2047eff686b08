import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the bench, without types
import { hostPreload, imageRuntime, readImageRuntime } from '../../../bench/lib/image-runtime.mjs';

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

  it('takes from the Dockerfile flags that this node accepts, and runs it on the allocator the image preloads', () => {
    const { nodeFlags, env } = readImageRuntime(ROOT) as Runtime;
    expect(nodeFlags).toContain('--no-memory-reducer');
    expect(env.LD_PRELOAD).toMatch(/libjemalloc\.so\.2$/);
    // The loader only warns about a library it cannot preload, and jemalloc about a setting it does not
    // know: either would print here. The maps show the allocator is really in the process.
    const run = spawnSync(process.execPath, [...nodeFlags, '-p', "require('fs').readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc')"], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('true');
  });

  it("finds the image's preloaded library on this machine by its file name, and refuses to go on without it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-preload-'));
    const arch = join(dir, 'x-linux-gnu');
    mkdirSync(arch);
    writeFileSync(join(arch, 'liba.so.2'), '');
    expect(hostPreload('/usr/local/lib/liba.so.2', [dir, arch])).toBe(join(arch, 'liba.so.2'));
    expect(() => hostPreload('/usr/local/lib/libmissing.so.1', [dir, arch])).toThrow(/preloads \/usr\/local\/lib\/libmissing\.so\.1/);
  });
});
