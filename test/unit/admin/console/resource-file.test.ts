import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Document } from 'yaml';
import { ConfigError, EditRefused, FileConflict, findDocument, ResourceFile } from '../../../../src/admin/console/resource-file.js';

const FILE = `# the company's file; this comment must survive an edit
apiVersion: gw.io/v1alpha1
kind: GatewaySettings
metadata:
  name: settings
  namespace: acme
spec:
  tokenDomain: acme.example # inline comment
---
apiVersion: v1
kind: Secret
metadata:
  name: key
  namespace: acme
stringData:
  key: \${CONSOLE_TEST_KEY}
---
apiVersion: gw.io/v1alpha1
kind: GatewayToken
metadata:
  name: alice
  namespace: acme
spec:
  tokenHash: sha256:${'a'.repeat(64)}
`;

function fixture(): { path: string; reloads: number[]; file: ResourceFile } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-console-file-'));
  const path = join(dir, 'gateway.yaml');
  writeFileSync(path, FILE);
  const reloads: number[] = [];
  const file = new ResourceFile(path, async () => void reloads.push(reloads.length), { CONSOLE_TEST_KEY: 'k' });
  return { path, reloads, file };
}

const token = (name: string): Document => new Document({ apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name, namespace: 'acme' }, spec: { tokenHash: `sha256:${'b'.repeat(64)}` } });

describe('ResourceFile', () => {
  it('edits one document, keeps comments and ${VAR} references, writes atomically and reloads once', async () => {
    const { path, reloads, file } = fixture();
    const { version } = await file.read();
    await file.edit(version, (docs) => {
      findDocument(docs, 'GatewayToken', 'acme', 'alice')?.setIn(['spec', 'revoked'], true);
      docs.push(token('bob'));
    });
    const text = readFileSync(path, 'utf8');
    expect(text).toContain("# the company's file; this comment must survive an edit");
    expect(text).toContain('# inline comment');
    expect(text).toContain('key: ${CONSOLE_TEST_KEY}');
    expect(text).toContain('revoked: true');
    expect(ResourceFile.documents(text)).toHaveLength(4);
    expect(ResourceFile.documents(text).every((d) => d !== null)).toBe(true);
    expect(reloads).toEqual([0]);
    // No temporary file left beside it.
    expect(readdirSync(join(path, '..'))).toEqual(['gateway.yaml']);
  });

  it('refuses a stale version with the documents another writer changed, and writes nothing', async () => {
    const { path, reloads, file } = fixture();
    const { version } = await file.read();
    await file.edit(version, (docs) => void docs.push(token('bob')));
    const after = readFileSync(path, 'utf8');
    const stale = file.edit(version, (docs) => void docs.push(token('carol')));
    await expect(stale).rejects.toBeInstanceOf(FileConflict);
    await expect(stale).rejects.toMatchObject({ changed: ['GatewayToken acme/bob added'] });
    expect(readFileSync(path, 'utf8')).toBe(after);
    expect(reloads).toHaveLength(1);
  });

  it('notices a change made by hand in an editor as a conflict too', async () => {
    const { path, file } = fixture();
    const { version } = await file.read();
    writeFileSync(path, FILE.replace('acme.example', 'acme.test'));
    await expect(file.edit(version, () => undefined)).rejects.toMatchObject({ changed: ['GatewaySettings acme/settings changed'] });
  });

  it('refuses an edit the startup validation refuses (with its problems) and leaves the file as it was', async () => {
    const { path, reloads, file } = fixture();
    const { version } = await file.read();
    const bad = file.edit(version, (docs) => findDocument(docs, 'GatewaySettings', 'acme')?.setIn(['spec', 'spendLimits'], { timeZone: 'Nowhere/Else' }));
    await expect(bad).rejects.toBeInstanceOf(ConfigError);
    await expect(bad).rejects.toMatchObject({ problems: [expect.stringContaining('"Nowhere/Else" is not an IANA time zone')] });
    expect(readFileSync(path, 'utf8')).toBe(FILE);
    expect(reloads).toEqual([]);
  });

  it('passes on a refusal from the edit itself without writing', async () => {
    const { path, file } = fixture();
    const { version } = await file.read();
    await expect(
      file.edit(version, () => {
        throw new EditRefused('taken');
      }),
    ).rejects.toBeInstanceOf(EditRefused);
    expect(readFileSync(path, 'utf8')).toBe(FILE);
  });

  it('runs concurrent edits one at a time: the second sees the first and is refused as stale', async () => {
    const { file } = fixture();
    const { version } = await file.read();
    const results = await Promise.allSettled([file.edit(version, (docs) => void docs.push(token('one'))), file.edit(version, (docs) => void docs.push(token('two')))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
  });
});
