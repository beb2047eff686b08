import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (where crds/ and proto/ live), from src/ under vitest or dist/ when built. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'crds'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find the package root (package.json beside crds/)');
}
