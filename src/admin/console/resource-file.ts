import { createHash } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMap, parseAllDocuments, type Document } from 'yaml';
import { ConfigError } from '../../config/config-error.js';
import { loadResources } from '../../config/load-resources.js';

/** The file changed since the page read it: nothing was written; `changed` names the documents that differ. */
export class FileConflict extends Error {
  constructor(readonly changed: readonly string[]) {
    super('the resources file changed since this page loaded');
  }
}

/** The edit itself is refused (a name taken, a token that does not exist): nothing was written. */
export class EditRefused extends Error {}

export interface FileSnapshot {
  readonly text: string;
  /** sha256 of the text: the page sends it back with a write, and a different file is a 409. */
  readonly version: string;
}

function versionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** `Kind namespace/name` of each document, with its text, to say what another writer changed. */
function documentsByName(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of parseAllDocuments(text)) {
    const value = doc.toJS() as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
    const name = `${String(value?.kind ?? '?')} ${String(value?.metadata?.namespace ?? 'default')}/${String(value?.metadata?.name ?? '?')}`;
    out.set(name, JSON.stringify(value));
  }
  return out;
}

function changedDocuments(before: string, after: string): string[] {
  const a = documentsByName(before);
  const b = documentsByName(after);
  const out: string[] = [];
  for (const [name, value] of b) if (a.get(name) !== value) out.push(a.has(name) ? `${name} changed` : `${name} added`);
  for (const name of a.keys()) if (!b.has(name)) out.push(`${name} removed`);
  return out;
}

/**
 * The `gw serve -f` file as the console edits it: read with a version,
 * changed document by document (comments and `${VAR}` references kept),
 * validated exactly as at startup, written atomically (a temporary file in
 * the same directory, flushed, renamed over), then applied by the runtime's
 * own reload. Edits run one at a time in this process; a file someone else
 * changed since the page loaded is never overwritten.
 */
export class ResourceFile {
  private queue: Promise<unknown> = Promise.resolve();
  /** Texts recently handed to pages, by version, so a conflict can say what changed (bounded). */
  private readonly seen = new Map<string, string>();

  constructor(
    readonly path: string,
    private readonly reload: () => Promise<void>,
    /** What `${VAR}` in the file expands from when a change is validated (the configuration's environment). */
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async read(): Promise<FileSnapshot> {
    const text = await readFile(this.path, 'utf8');
    const version = versionOf(text);
    this.seen.delete(version);
    this.seen.set(version, text);
    if (this.seen.size > 32) this.seen.delete(this.seen.keys().next().value as string);
    return { text, version };
  }

  /** The file's documents as parsed data (with `${VAR}` left unexpanded: nothing secret is read here). */
  static documents(text: string): unknown[] {
    return parseAllDocuments(text).map((d) => d.toJS() as unknown);
  }

  /**
   * Apply `edit` to the file's YAML documents if the file is still at
   * `version`; returns the new snapshot and whatever `edit` returned.
   */
  edit<T>(version: string, edit: (docs: Document[]) => T): Promise<{ snapshot: FileSnapshot; result: T }> {
    const run = this.queue.then(() => this.editNow(version, edit));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async editNow<T>(version: string, edit: (docs: Document[]) => T): Promise<{ snapshot: FileSnapshot; result: T }> {
    const current = await this.read();
    if (current.version !== version) {
      const before = this.seen.get(version);
      throw new FileConflict(before === undefined ? [] : changedDocuments(before, current.text));
    }
    const docs = parseAllDocuments(current.text) as Document[];
    const result = edit(docs);
    // A document read after a `---` prints its own marker; one added here needs one.
    const text = docs.map((d, i) => (i === 0 || d.toString().startsWith('---') ? d.toString() : `---\n${d.toString()}`)).join('');
    // Refused here exactly as gw serve would refuse it at startup (schema, names, settings problems).
    loadResources(text, this.env, this.path);
    await writeAtomically(this.path, text);
    await this.reload();
    return { snapshot: await this.read(), result };
  }
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** The document of `kind` named `name` in `namespace` (a document without one is in `default`). */
export function findDocument(docs: readonly Document[], kind: string, namespace: string, name?: string): Document | undefined {
  return docs.find((d) => {
    if (!isMap(d.contents)) return false;
    const value = d.toJS() as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
    return value.kind === kind && (value.metadata?.namespace ?? 'default') === namespace && (name === undefined || value.metadata?.name === name);
  });
}

export { ConfigError };
