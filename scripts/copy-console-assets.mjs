// npm run build: the console's page and stylesheet go beside its compiled scripts in dist/console,
// the one folder the admin listener serves at /console/.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'console');
mkdirSync(out, { recursive: true });
for (const file of ['index.html', 'console.css']) copyFileSync(join(root, 'web', 'console', file), join(out, file));
