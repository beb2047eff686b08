import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { hashToken } from '../../../src/auth/token.js';
import { createLogger } from '../../../src/observability/logger.js';
import { GENERATED_TOKEN_KEY, generatedTokenSecretName } from '../../../src/reconcile/desired-records.js';
import { GatewayMetrics } from '../../../src/observability/metrics.js';
import { applyFile, unreadableReporter } from '../../../src/runtime/gateway-runtime.js';
import { RECORD_VERSION, UnreadableRecord } from '../../../src/state/record-version.js';
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

describe('unreadableReporter', () => {
  it('counts every unreadable record and logs each kind at most every 10 s, naming the version and what this build reads', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const metrics = new GatewayMetrics();
    const report = unreadableReporter(logger, metrics);
    report(new UnreadableRecord('token', 'gw:token:sha256:0123456789ab…', 'newer', 2));
    report(new UnreadableRecord('token', 'gw:token:sha256:0123456789ab…', 'newer', 2));
    report(new UnreadableRecord('company', 'gw:{acme}:records', 'invalid', 1));
    expect(lines.map((l) => [l.record, l.reason, l.version, l.supported])).toEqual([
      ['token', 'newer', 2, RECORD_VERSION],
      ['company', 'invalid', 1, RECORD_VERSION],
    ]);
    expect(lines[0]?.msg).toContain('upgrade this process (data planes before the operator)');
    const counted = (await metrics.registry.getSingleMetricAsString('gw_state_unreadable_records_total')).split('\n').filter((l) => !l.startsWith('#'));
    expect(counted.sort()).toEqual(['gw_state_unreadable_records_total{record="company",reason="invalid"} 1', 'gw_state_unreadable_records_total{record="token",reason="newer"} 2']);
  });
});
