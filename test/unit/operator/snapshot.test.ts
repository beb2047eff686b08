import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/auth/token.js';
import { desiredState, generatedTokenSecretName } from '../../../src/reconcile/desired-records.js';
import type { Secret } from '../../../src/resources/types.js';
import { generatedSecretOwnership, type ClusterCredential, type ClusterSettings, type ClusterToken } from '../../../src/operator/kube-objects.js';
import { namespacesNaming, resourceSetOf, snapshotOf, type ClusterView } from '../../../src/operator/snapshot.js';

const HASH = hashToken('gwct_shared');

function token(namespace: string, name: string, spec: ClusterToken['spec'], meta: Partial<ClusterToken['metadata']> = {}): ClusterToken {
  return { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name, namespace, uid: `uid-${namespace}-${name}`, ...meta }, spec };
}

function generatedSecret(namespace: string, tokenName: string, ownerUid: string | null, value = 'gwct_value'): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: generatedTokenSecretName(tokenName),
      namespace,
      uid: `secret-${tokenName}`,
      ...(ownerUid ? { ownerReferences: [{ apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', name: tokenName, uid: ownerUid, controller: true }] } : {}),
    },
    data: { token: Buffer.from(value).toString('base64') },
  };
}

function view(input: { tokens?: ClusterToken[]; credentials?: ClusterCredential[]; settings?: ClusterSettings[]; secrets?: Secret[] }): ClusterView {
  const inNs = <T extends { metadata: { namespace?: string } }>(list: T[] | undefined, ns?: string): T[] => (list ?? []).filter((o) => ns === undefined || o.metadata.namespace === ns);
  return {
    tokens: (ns) => inNs(input.tokens, ns),
    credentials: (ns) => inNs(input.credentials, ns),
    settings: (ns) => inNs(input.settings, ns),
    secrets: (ns) => inNs(input.secrets, ns),
  };
}

describe('generatedSecretOwnership', () => {
  const t = token('acme', 'ci', {});
  it("tells ours, a stale one left by an earlier token of that name, someone else's, and none", () => {
    expect(generatedSecretOwnership(undefined, t)).toBe('missing');
    expect(generatedSecretOwnership(generatedSecret('acme', 'ci', 'uid-acme-ci'), t)).toBe('ours');
    expect(generatedSecretOwnership(generatedSecret('acme', 'ci', 'uid-of-a-deleted-ci'), t)).toBe('stale');
    expect(generatedSecretOwnership(generatedSecret('acme', 'ci', null), t)).toBe('foreign');
  });
});

describe('the namespace snapshot reconcile reads', () => {
  it('holds one namespace, plus the tokens elsewhere that name one of its hashes', () => {
    const v = view({
      tokens: [token('acme', 'ci', { tokenHash: HASH }), token('globex', 'copy', { tokenHash: HASH }), token('globex', 'own', { tokenHash: hashToken('gwct_other') })],
      secrets: [generatedSecret('globex', 'x', 'u')],
    });
    const snap = snapshotOf(v, 'acme');
    expect(snap.tokens.map((t) => t.metadata.name)).toEqual(['ci']);
    expect(snap.rivals.map((t) => `${t.metadata.namespace}/${t.metadata.name}`)).toEqual(['globex/copy']);
    expect(snap.secrets).toEqual([]);
    expect(namespacesNaming(v, HASH).sort()).toEqual(['acme', 'globex']);
    expect(namespacesNaming(v, undefined)).toEqual([]);
  });

  it('lets the older holder of a shared hash keep it across namespaces, as desiredState decides over everything', () => {
    const older = token('globex', 'first', { tokenHash: HASH }, { creationTimestamp: '2026-01-01T00:00:00Z' });
    const newer = token('acme', 'second', { tokenHash: HASH }, { creationTimestamp: '2026-02-01T00:00:00Z' });
    const v = view({ tokens: [older, newer] });
    const state = desiredState(resourceSetOf(snapshotOf(v, 'acme')));
    expect(state.conditions.find((c) => c.namespace === 'acme' && c.name === 'second')?.reason).toBe('DuplicateHash');
    expect(state.companies.find((c) => c.company === 'acme')?.tokens).toEqual([]);
  });

  it('counts a generated-token Secret only when this very token controls it', () => {
    const t = token('acme', 'ci', {});
    for (const [owner, live] of [
      ['uid-acme-ci', true],
      ['uid-of-a-deleted-ci', false],
      [null, false],
    ] as const) {
      const v = view({ tokens: [t], secrets: [generatedSecret('acme', 'ci', owner, 'gwct_x')] });
      const company = desiredState(resourceSetOf(snapshotOf(v, 'acme'))).companies.find((c) => c.company === 'acme');
      expect(
        company?.tokens.map((r) => r.hash),
        String(owner),
      ).toEqual(live ? [hashToken('gwct_x')] : []);
    }
  });

  it('a Secret just created by this reconcile takes the place of what the cache holds', () => {
    const t = token('acme', 'ci', {});
    const v = view({ tokens: [t], secrets: [generatedSecret('acme', 'ci', 'uid-old', 'gwct_old')] });
    const set = resourceSetOf(snapshotOf(v, 'acme'), [generatedSecret('acme', 'ci', 'uid-acme-ci', 'gwct_new')]);
    expect(desiredState(set).companies[0]?.tokens.map((r) => r.hash)).toEqual([hashToken('gwct_new')]);
  });
});
