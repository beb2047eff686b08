import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layer order of src/ (docs/architecture.md draws it). A module may
 * import from its own layer or any layer below, never from above; and the
 * pure core (src/pipeline and everything it reaches) imports no transport,
 * server, cluster or Redis client package. Imports are read with the
 * TypeScript scanner (static, `export … from` and dynamic `import()` alike).
 */
export const LAYERS: readonly (readonly string[])[] = [
  // Shapes of an HTTP exchange (types only), and helpers with no domain.
  ['http', 'support'],
  ['errors'],
  // Facts: the model catalogue and providers, metering arithmetic, the CRD types, secret rules.
  ['models', 'metering', 'resources', 'redaction'],
  // The operator ↔ data-plane contract and its implementations.
  ['state'],
  // Domain decisions beside the core.
  ['auth', 'attribution', 'credentials', 'governance', 'policy', 'reconcile', 'upstream', 'usage'],
  // The request, phase by phase.
  ['pipeline'],
  // Edges: configuration, telemetry, Envoy configuration, the admin API.
  ['config', 'observability', 'envoy', 'admin'],
  ['runtime'],
  // Data planes and the operator.
  ['extproc', 'serve', 'operator'],
  ['cli'],
];

/** What the core must never load: transports, servers, Envoy, Kubernetes, Redis, telemetry SDKs. */
const FORBIDDEN_IN_CORE = [/^@grpc\//, /^@kubernetes\//, /^ioredis$/, /^pg$/, /^undici$/, /^@opentelemetry\//, /^(node:)?(http|https|http2|net|tls|dgram|child_process|worker_threads)$/];

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  readonly file: string;
  readonly specifier: string;
  /** The imported file for a relative import, else null (a package). */
  readonly target: string | null;
}

function importsOf(file: string): Import[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map(({ fileName }) => ({
    file,
    specifier: fileName,
    target: fileName.startsWith('.') ? resolve(dirname(file), fileName).replace(/\.js$/, '.ts') : null,
  }));
}

/** The top folder under src/ a file belongs to. */
function moduleOf(file: string): string {
  return relative(SRC, file).split(sep)[0] ?? '';
}

function layerOf(module: string): number {
  return LAYERS.findIndex((layer) => layer.includes(module));
}

const FILES = sourceFiles(SRC);
const IMPORTS = FILES.flatMap(importsOf);
const show = (i: Import): string => `${relative(ROOT, i.file)} imports '${i.specifier}'`;

/** Every import that points from a lower layer up to a higher one, described. */
export function upwardImports(imports: readonly Import[]): string[] {
  const out: string[] = [];
  for (const i of imports) {
    if (i.target === null) continue;
    const from = moduleOf(i.file);
    const to = moduleOf(i.target);
    if (layerOf(to) > layerOf(from)) out.push(`${show(i)}: ${from} (layer ${layerOf(from)}) may not import ${to} (layer ${layerOf(to)})`);
  }
  return out;
}

describe('layer order', () => {
  it('places every folder of src/ in exactly one layer', () => {
    const modules = [...new Set(FILES.map(moduleOf))].sort();
    expect(modules.filter((m) => layerOf(m) === -1).map((m) => `src/${m} is in no layer: add it to LAYERS and to docs/architecture.md`)).toEqual([]);
    const listed = LAYERS.flat();
    expect(listed.filter((m, i) => listed.indexOf(m) !== i)).toEqual([]);
    expect(listed.filter((m) => !modules.includes(m)).map((m) => `LAYERS names src/${m}, which does not exist`)).toEqual([]);
    expect(FILES.filter((f) => !relative(SRC, f).includes(sep)).map((f) => `${relative(ROOT, f)} is outside every module folder`)).toEqual([]);
  });

  it('has no import pointing up a layer', () => {
    expect(upwardImports(IMPORTS)).toEqual([]);
  });

  it('catches an upward import (the check itself can fail)', () => {
    const planted: Import = { file: join(SRC, 'auth', 'authenticate.ts'), specifier: '../pipeline/types.js', target: join(SRC, 'pipeline', 'types.ts') };
    expect(upwardImports([planted])).toEqual(["src/auth/authenticate.ts imports '../pipeline/types.js': auth (layer 4) may not import pipeline (layer 5)"]);
  });
});

/**
 * Every import cycle among the given files (Tarjan's strongly connected
 * components), each as its files relative to the root. Type-only imports
 * count: a reader still has to hold both files in mind at once.
 */
export function importCycles(imports: readonly Import[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const i of imports) {
    if (!graph.has(i.file)) graph.set(i.file, []);
    if (i.target !== null) graph.get(i.file)?.push(i.target);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.map((f) => relative(ROOT, f)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * Every cycle among the top-level folders of src/ (two folders of one layer
 * that import each other, directly or through others): the layer order allows
 * imports within a layer either way, so this is what keeps each pair to one
 * direction. Each cycle is given as its folders, sorted.
 */
export function folderCycles(imports: readonly Import[]): string[][] {
  const edges = new Map<string, Import>();
  for (const i of imports) {
    if (i.target === null) continue;
    const from = moduleOf(i.file);
    const to = moduleOf(i.target);
    if (from !== to && !edges.has(`${from}>${to}`)) edges.set(`${from}>${to}`, i);
  }
  // One stand-in file per folder, so the file-level search finds folder cycles.
  const folder = (name: string): string => join(SRC, name, 'index.ts');
  const graph: Import[] = [...edges.values()].map((i) => ({ file: folder(moduleOf(i.file)), specifier: i.specifier, target: folder(moduleOf(i.target as string)) }));
  return importCycles(graph).map((cycle) => cycle.map((f) => f.split(sep)[1] ?? f).sort());
}

/** One import that makes each folder of a cycle depend on the next, for the failure message. */
function folderCycleWitnesses(imports: readonly Import[], cycle: readonly string[]): string[] {
  return imports.filter((i) => i.target !== null && moduleOf(i.file) !== moduleOf(i.target) && cycle.includes(moduleOf(i.file)) && cycle.includes(moduleOf(i.target))).map(show);
}

describe('import cycles', () => {
  it('has none among the files of src/', () => {
    expect(importCycles(IMPORTS)).toEqual([]);
  });

  it('has none among the folders of src/ (two folders of a layer import each other one way only)', () => {
    const cycles = folderCycles(IMPORTS);
    expect(cycles.map((c) => `${c.join(' <-> ')}: ${folderCycleWitnesses(IMPORTS, c).join('; ')}`)).toEqual([]);
  });

  it('finds a folder cycle that no file cycle shows (the check itself can fail)', () => {
    const edge = (from: string, to: string): Import => ({ file: join(SRC, from), specifier: `../${to.replace(/\.ts$/, '.js')}`, target: join(SRC, to) });
    // The shape this check found before src/config took the Envoy settings: no file repeats, the folders do.
    const imports = [edge('config/commands.ts', 'envoy/settings.ts'), edge('envoy/settings.ts', 'config/load-resources.ts'), edge('envoy/bootstrap.ts', 'http/types.ts')];
    expect(importCycles(imports)).toEqual([]);
    expect(folderCycles(imports)).toEqual([['config', 'envoy']]);
  });

  it('finds a cycle through three files, and a type-only pair (the check itself can fail)', () => {
    const at = (name: string): string => join(SRC, 'observability', name);
    const edge = (from: string, to: string): Import => ({ file: at(from), specifier: `./${to.replace(/\.ts$/, '.js')}`, target: at(to) });
    expect(importCycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts'), edge('d.ts', 'a.ts')])).toEqual([
      ['src/observability/a.ts', 'src/observability/b.ts', 'src/observability/c.ts'],
    ]);
    expect(importCycles([edge('telemetry.ts', 'otel-sdk.ts'), edge('otel-sdk.ts', 'telemetry.ts')])).toHaveLength(1);
  });
});

/** Files outside src/config that read `process.env` (the entry point hands it to the configuration layer and is allowed). */
export function environmentReaders(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const rel = relative(ROOT, file);
    if (moduleOf(file) === 'config' || rel === join('src', 'cli', 'main.ts')) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process') {
        out.push(`${rel}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} reads process.env`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

describe('configuration', () => {
  it('is read from the environment only in src/config (one descriptor per setting; the entry point passes env in)', () => {
    expect(environmentReaders(FILES)).toEqual([]);
  });

  it('finds a read of process.env, and not a mention in a comment (the check itself can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-env-'));
    const file = join(dir, 'planted.ts');
    writeFileSync(file, '// process.env in a comment is fine\nexport const level = process.env.GW_LOG_LEVEL;\n');
    try {
      expect(environmentReaders([file])).toEqual([`${relative(ROOT, file)}:2 reads process.env`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the pure core', () => {
  /** src/pipeline and every src file it reaches through its imports. */
  function core(): Set<string> {
    const reached = new Set(FILES.filter((f) => moduleOf(f) === 'pipeline'));
    const queue = [...reached];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      for (const i of importsOf(file)) {
        if (i.target !== null && !reached.has(i.target)) {
          reached.add(i.target);
          queue.push(i.target);
        }
      }
    }
    return reached;
  }

  it('reaches no transport, server, Envoy, Kubernetes, Redis or telemetry package, directly or through a domain module', () => {
    const files = core();
    expect(files.size).toBeGreaterThan(30);
    const offending = IMPORTS.filter((i) => files.has(i.file) && i.target === null && FORBIDDEN_IN_CORE.some((p) => p.test(i.specifier))).map(show);
    expect(offending).toEqual([]);
  });

  it('reaches no data plane, adapter or Envoy module', () => {
    const adapters = new Set(['extproc', 'serve', 'envoy', 'operator', 'runtime', 'cli', 'admin', 'config', 'observability']);
    expect([...core()].filter((f) => adapters.has(moduleOf(f))).map((f) => relative(ROOT, f))).toEqual([]);
  });
});
