// npm run build: the console's compiled scripts, page and stylesheet go into dist/console, the one
// folder the admin listener serves at /console/. The scripts are compiled into dist/console-build
// first: they import the server's row types (type-only, erased), so tsc's root is the repository and
// it mirrors it there; only the browser's own scripts are shipped.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'console');
const built = join(root, 'dist', 'console-build');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const scripts = join(built, 'web', 'console', 'src');
for (const file of readdirSync(scripts).filter((f) => f.endsWith('.js'))) copyFileSync(join(scripts, file), join(out, file));
rmSync(built, { recursive: true, force: true });
for (const file of ['index.html', 'console.css']) copyFileSync(join(root, 'web', 'console', file), join(out, file));
