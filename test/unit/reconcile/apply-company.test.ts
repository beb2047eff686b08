import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/token.js';
import { applyCompany, MemoryRevocations, resourceTruth, revocationsOf, type CompanyApplyPorts } from '../../../src/reconcile/apply-company.js';
import { GENERATED_TOKEN_KEY, generatedTokenSecretName, type ResourceSet } from '../../../src/reconcile/desired-records.js';
import type { GatewaySettings, GatewaySettingsSpec, GatewayToken, GatewayTokenSpec, Secret } from '../../../src/resources/types.js';
import { MemoryState } from '../../../src/state/memory.js';

const HASH_A = hashToken('gwct_a');
const HASH_B = hashToken('gwct_b');
const DELETED = '2026-01-01T00:00:00Z';

function settings(spec: GatewaySettingsSpec, namespace = 'acme'): GatewaySettings {
  return { apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name: 'settings', namespace }, spec };
}

function token(name: string, spec: GatewayTokenSpec, meta: { namespace?: string; deletionTimestamp?: string; creationTimestamp?: string } = {}): GatewayToken {
  return { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name, namespace: 'acme', ...meta }, spec };
}

function generatedSecret(tokenName: string, value: string, namespace = 'acme'): Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: generatedTokenSecretName(tokenName), namespace }, stringData: { [GENERATED_TOKEN_KEY]: value } };
}

function resources(input: Partial<ResourceSet>): ResourceSet {
  return { settings: [], tokens: [], credentials: [], secrets: [], ...input };
}

function portsFor(state: MemoryState, set: ResourceSet, ledger = new MemoryRevocations()): CompanyApplyPorts & { ledger: MemoryRevocations } {
  return { state, ledger, truth: resourceTruth(set), mayWrite: () => {} };
}

describe('applyCompany: the one path from resources to state', () => {
  it('writes the records desiredState computes and reports the conditions of that company only', async () => {
    const state = new MemoryState();
    const set = resources({ tokens: [token('ci', { tokenHash: HASH_A }), token('other', { tokenHash: HASH_B }, { namespace: 'globex' })] });
    const applied = await applyCompany('acme', set, portsFor(state, set));
    expect(applied.wrote).toBe('replace');
    expect((await state.getCompany('acme'))?.tokens).toEqual([{ hash: HASH_A, company: 'acme', name: 'ci', address: 'ci@acme' }]);
    expect(await state.getCompany('globex')).toBeNull();
    expect(applied.conditions.map((c) => `${c.namespace}/${c.name}`)).toEqual(['acme/ci']);
  });

  it('revokes a revoked token for good: the ledger, the tombstone, and no later resource makes its hash live again', async () => {
    const state = new MemoryState();
    const live = resources({ tokens: [token('ci', { tokenHash: HASH_A })] });
    const ports = portsFor(state, live);
    await applyCompany('acme', live, ports);
    expect(await state.findToken(HASH_A)).not.toBeNull();

    const revoked = resources({ tokens: [token('ci', { tokenHash: HASH_A, revoked: true })] });
    const applied = await applyCompany('acme', revoked, { ...ports, truth: resourceTruth(revoked) });
    expect(applied.revoked).toEqual([{ hash: HASH_A, company: 'acme', name: 'ci' }]);
    expect(ports.ledger.has(HASH_A)).toBe(true);
    expect(await state.findToken(HASH_A)).toBeNull();

    const again = resources({ tokens: [token('new-name', { tokenHash: HASH_A })] });
    const reused = await applyCompany('acme', again, { ...ports, truth: resourceTruth(again) });
    expect(reused.records?.tokens).toEqual([]);
    expect(reused.conditions[0]).toMatchObject({ name: 'new-name', ready: false, reason: 'HashRevoked' });
    expect(await state.findToken(HASH_A)).toBeNull();
  });

  it('revokes a deleting token, and a deleted generated token by the hash the state holds once its Secret is gone', async () => {
    const state = new MemoryState();
    const before = resources({ tokens: [token('hashed', { tokenHash: HASH_A }), token('gen', {})], secrets: [generatedSecret('gen', 'gwct_b')] });
    const ports = portsFor(state, before);
    await applyCompany('acme', before, ports);
    expect(await state.findToken(HASH_B)).toMatchObject({ name: 'gen' });

    const deleting = resources({ tokens: [token('hashed', { tokenHash: HASH_A }, { deletionTimestamp: DELETED }), token('gen', {}, { deletionTimestamp: DELETED })] });
    const applied = await applyCompany('acme', deleting, { ...ports, truth: resourceTruth(deleting) });
    expect(applied.revoked.map((r) => r.name).sort()).toEqual(['gen', 'hashed']);
    expect(await state.findToken(HASH_A)).toBeNull();
    expect(await state.findToken(HASH_B)).toBeNull();
    expect([...ports.ledger.hashes()].sort()).toEqual([HASH_A, HASH_B].sort());
  });

  it('a deleted copy of an older token’s hash revokes nothing: copying a hash and deleting the copy cannot kill the original', () => {
    const original = token('theirs', { tokenHash: HASH_A }, { namespace: 'globex', creationTimestamp: '2026-01-01T00:00:00Z' });
    const copy = token('copy', { tokenHash: HASH_A }, { creationTimestamp: '2026-02-01T00:00:00Z', deletionTimestamp: DELETED });
    expect(revocationsOf('acme', resources({ tokens: [copy, original] }), null)).toEqual([]);
    const older = token('copy', { tokenHash: HASH_A }, { creationTimestamp: '2025-12-01T00:00:00Z', deletionTimestamp: DELETED });
    expect(revocationsOf('acme', resources({ tokens: [older, original] }), null)).toEqual([{ hash: HASH_A, company: 'acme', name: 'copy' }]);
  });

  it('revokes a record whose token vanished from the source, and not one whose token now names another hash', async () => {
    const state = new MemoryState();
    const before = resources({ tokens: [token('gone', { tokenHash: HASH_A }), token('rotated', { tokenHash: HASH_B })] });
    const ports = portsFor(state, before);
    await applyCompany('acme', before, ports);

    const rotatedHash = hashToken('gwct_c');
    const after = resources({ tokens: [token('rotated', { tokenHash: rotatedHash })] });
    const applied = await applyCompany('acme', after, { ...ports, truth: resourceTruth(after) });
    expect(applied.vanished).toEqual([{ hash: HASH_A, company: 'acme', name: 'gone' }]);
    expect(ports.ledger.has(HASH_A)).toBe(true);
    expect(ports.ledger.has(HASH_B)).toBe(false);
    expect(await state.findToken(HASH_B)).toBeNull();
    expect(await state.findToken(rotatedHash)).toMatchObject({ name: 'rotated' });
  });

  it('revokes a generated token’s old hash when its Secret holds another value, and judges nothing on an unreadable one', async () => {
    const state = new MemoryState();
    const before = resources({ tokens: [token('gen', {})], secrets: [generatedSecret('gen', 'gwct_a')] });
    const ports = portsFor(state, before);
    await applyCompany('acme', before, ports);

    const unreadable = resources({ tokens: [token('gen', {})] });
    const judged = await applyCompany('acme', unreadable, { ...ports, truth: { tokenExists: async () => true, generatedValue: async () => 'unjudged' } });
    expect(judged.vanished).toEqual([]);
    expect(ports.ledger.has(HASH_A)).toBe(false);

    await applyCompany('acme', before, ports);
    const replaced = resources({ tokens: [token('gen', {})], secrets: [generatedSecret('gen', 'gwct_b')] });
    const applied = await applyCompany('acme', replaced, { ...ports, truth: resourceTruth(replaced) });
    expect(applied.vanished).toEqual([{ hash: HASH_A, company: 'acme', name: 'gen' }]);
    expect(await state.findToken(HASH_B)).toMatchObject({ name: 'gen' });
  });

  it('keeps the settings the state holds when the GatewaySettings turns invalid', async () => {
    const state = new MemoryState();
    const valid = resources({ settings: [settings({ tokenDomain: 'acme.example' })] });
    await applyCompany('acme', valid, portsFor(state, valid));
    const invalid = resources({ settings: [settings({ tokenDomain: 'acme.example', spendLimits: { timeZone: 'Mars/Olympus' } })] });
    const applied = await applyCompany('acme', invalid, portsFor(state, invalid));
    expect(applied.conditions[0]).toMatchObject({ ready: false, reason: 'InvalidSettings' });
    expect(applied.conditions[0]?.message).toContain('The last valid settings stay in force');
    expect((await state.getCompany('acme'))?.settings.tokenDomain).toBe('acme.example');
  });

  it('removes a company with no resources left, revoking its tokens', async () => {
    const state = new MemoryState();
    const before = resources({ tokens: [token('ci', { tokenHash: HASH_A })] });
    const ports = portsFor(state, before);
    await applyCompany('acme', before, ports);
    const empty = resources({});
    const applied = await applyCompany('acme', empty, { ...ports, truth: resourceTruth(empty) });
    expect(applied.wrote).toBe('remove');
    expect(applied.vanished.map((v) => v.name)).toEqual(['ci']);
    expect(await state.getCompany('acme')).toBeNull();
    expect(await state.listCompanies()).toEqual([]);
  });

  it('writes nothing once mayWrite refuses (a writer that lost its Lease)', async () => {
    const state = new MemoryState();
    const set = resources({ tokens: [token('ci', { tokenHash: HASH_A, revoked: true }), token('live', { tokenHash: HASH_B })] });
    const ports = {
      ...portsFor(state, set),
      mayWrite: () => {
        throw new Error('not the leader');
      },
    };
    await expect(applyCompany('acme', set, ports)).rejects.toThrow('not the leader');
    expect(ports.ledger.has(HASH_A)).toBe(false);
    expect(await state.getCompany('acme')).toBeNull();
  });

  it('skips the write only when this writer wrote the same records and the state still holds them', async () => {
    const state = new MemoryState();
    const set = resources({ tokens: [token('ci', { tokenHash: HASH_A })] });
    const first = await applyCompany('acme', set, portsFor(state, set));
    const same = await applyCompany('acme', set, portsFor(state, set), { lastWritten: first.digest });
    expect(same.wrote).toBeNull();
    expect((await applyCompany('acme', set, portsFor(state, set), { lastWritten: first.digest, force: true })).wrote).toBe('replace');
    // The state lost the company (a flushed Redis): the digest of what was written no longer stops the write.
    await state.removeCompany('acme');
    expect((await applyCompany('acme', set, portsFor(state, set), { lastWritten: first.digest })).wrote).toBe('replace');
    expect(await state.findToken(HASH_A)).toMatchObject({ name: 'ci' });
  });
});
