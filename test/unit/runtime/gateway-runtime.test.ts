import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { hashToken } from '../../../src/auth/token.js';
import { createLogger } from '../../../src/observability/logger.js';
import { GENERATED_TOKEN_KEY, generatedTokenSecretName } from '../../../src/reconcile/desired-records.js';
import { applyFile } from '../../../src/runtime/gateway-runtime.js';
import { MemoryState } from '../../../src/state/memory.js';

const HASH_A = hashToken('gwct_a');
const HASH_B = hashToken('gwct_b');

describe('applyFile (gw serve -f) takes the same path', () => {
  const doc = (kind: string, name: string, spec: object, namespace = 'acme'): object => ({ apiVersion: 'gw.io/v1alpha1', kind, metadata: { name, namespace }, spec });
  const write = (dir: string, docs: object[]): string => {
    const file = join(dir, 'gateway.yaml');
    writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
    return file;
  };

  it('revokes a token the file no longer names, as deleting a GatewayToken does; a reload never makes it live again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-apply-file-'));
    const state = new MemoryState();
    const logger = createLogger('silent');
    await applyFile(write(dir, [doc('GatewayToken', 'ci', { tokenHash: HASH_A }), doc('GatewayToken', 'keep', { tokenHash: HASH_B })]), state, logger);
    expect(await state.findToken(HASH_A)).toMatchObject({ name: 'ci' });

    await applyFile(write(dir, [doc('GatewayToken', 'keep', { tokenHash: HASH_B })]), state, logger);
    expect(await state.findToken(HASH_A)).toBeNull();
    expect(await state.findToken(HASH_B)).toMatchObject({ name: 'keep' });

    await applyFile(write(dir, [doc('GatewayToken', 'ci', { tokenHash: HASH_A }), doc('GatewayToken', 'keep', { tokenHash: HASH_B })]), state, logger);
    expect(await state.findToken(HASH_A)).toBeNull();
    expect((await state.getCompany('acme'))?.tokens.map((t) => t.name)).toEqual(['keep']);
  });

  it('revokes a revoked generated token by its Secret’s value, and removes a company the file no longer names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-apply-file-'));
    const state = new MemoryState();
    const logger = createLogger('silent');
    const secretDoc = { apiVersion: 'v1', kind: 'Secret', metadata: { name: generatedTokenSecretName('gen'), namespace: 'acme' }, stringData: { [GENERATED_TOKEN_KEY]: 'gwct_a' } };
    await applyFile(write(dir, [doc('GatewayToken', 'gen', {}), secretDoc, doc('GatewayToken', 'other', { tokenHash: HASH_B }, 'globex')]), state, logger);
    expect(await state.findToken(HASH_A)).toMatchObject({ name: 'gen' });
    expect((await state.listCompanies()).sort()).toEqual(['acme', 'globex']);

    await applyFile(write(dir, [doc('GatewayToken', 'gen', { revoked: true }), secretDoc]), state, logger);
    expect(await state.findToken(HASH_A)).toBeNull();
    expect(await state.findToken(HASH_B)).toBeNull();
    expect(await state.listCompanies()).toEqual(['acme']);
  });
});
