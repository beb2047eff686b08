import { describe, expect, it } from 'vitest';
import { notReady, ready } from '../../../src/reconcile/conditions.js';
import type { ClusterToken, ResourceStatus } from '../../../src/operator/kube-objects.js';
import type { KubeWriter } from '../../../src/operator/kube-writer.js';
import { desiredStatus, StatusSync, statusPatch } from '../../../src/operator/status.js';

const T0 = new Date('2026-03-01T10:00:00.123Z');
const T1 = new Date('2026-03-01T11:00:00.000Z');

function token(generation: number, status?: ResourceStatus, spec: ClusterToken['spec'] = { tokenHash: 'sha256:' + 'a'.repeat(64) }): ClusterToken {
  return { apiVersion: 'gw.io/v1alpha1', kind: 'GatewayToken', metadata: { name: 'ci', namespace: 'acme', uid: 'u1', generation }, spec, ...(status ? { status } : {}) };
}

/** The object and the status it carries now, as desiredStatus takes them. */
const withStatus = (obj: ClusterToken): [ClusterToken, ResourceStatus | undefined] => [obj, obj.status];

const live = ready('GatewayToken', 'acme', 'ci', 'token is live as ci@acme.example', { address: 'ci@acme.example' });
const pending = notReady('GatewayToken', 'acme', 'ci', 'TokenPending', 'no tokenHash and no generated token Secret yet');

/** Records status patches instead of sending them; every other write is unexpected here. */
function recordingWriter(): { writer: KubeWriter; patches: Array<{ status: Record<string, unknown> }> } {
  const patches: Array<{ status: Record<string, unknown> }> = [];
  const unexpected = async (): Promise<never> => {
    throw new Error('unexpected write');
  };
  return {
    patches,
    writer: {
      patchStatus: async (_k, _n, _name, patch) => void patches.push(patch),
      setFinalizers: unexpected,
      createSecret: unexpected,
      readSecret: unexpected,
      deleteSecret: unexpected,
      createEvent: unexpected,
    },
  };
}

/** What the API server holds after a merge patch of `status`. */
function merged(current: ResourceStatus | undefined, patch: { status: Record<string, unknown> }): ResourceStatus {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(patch.status)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out as ResourceStatus;
}

describe('desiredStatus', () => {
  it('carries Ready with reason, message and observedGeneration, and the address', () => {
    expect(desiredStatus(...withStatus(token(3)), live, { address: 'ci@acme.example' }, T0)).toEqual({
      observedGeneration: 3,
      address: 'ci@acme.example',
      conditions: [{ type: 'Ready', status: 'True', reason: 'Reconciled', message: 'token is live as ci@acme.example', observedGeneration: 3, lastTransitionTime: '2026-03-01T10:00:00Z' }],
    });
  });

  it('keeps the transition time while Ready keeps its status, and moves it when the status flips', () => {
    const first = desiredStatus(...withStatus(token(1)), pending, {}, T0);
    const stillPending = desiredStatus(...withStatus(token(2, first)), { ...pending, message: 'other words' }, {}, T1);
    expect(stillPending.conditions?.[0]?.lastTransitionTime).toBe('2026-03-01T10:00:00Z');
    const nowLive = desiredStatus(...withStatus(token(2, first)), live, {}, T1);
    expect(nowLive.conditions?.[0]?.lastTransitionTime).toBe('2026-03-01T11:00:00Z');
  });
});

describe('statusPatch', () => {
  it('is null when nothing changed', () => {
    const current = desiredStatus(...withStatus(token(1)), live, { address: 'ci@acme.example' }, T0);
    expect(statusPatch(current, desiredStatus(...withStatus(token(1, current)), live, { address: 'ci@acme.example' }, T1))).toBeNull();
  });

  it('patches a new generation, a new reason or message, and a new address', () => {
    const current = desiredStatus(...withStatus(token(1)), live, { address: 'ci@acme.example' }, T0);
    expect(statusPatch(current, desiredStatus(...withStatus(token(2, current)), live, { address: 'ci@acme.example' }, T1))).toMatchObject({ status: { observedGeneration: 2 } });
    expect(statusPatch(current, desiredStatus(...withStatus(token(1, current)), { ...live, message: 'new words' }, { address: 'ci@acme.example' }, T1))?.status.conditions).toHaveLength(1);
    expect(statusPatch(current, desiredStatus(...withStatus(token(1, current)), live, { address: 'ci@other.example' }, T1))).toEqual({ status: { address: 'ci@other.example' } });
  });

  it('removes a field the operator no longer sets, and never touches fields it does not own', () => {
    const current: ResourceStatus = { ...desiredStatus(...withStatus(token(1)), live, { address: 'ci@acme.example', secretName: 'ci-gwct' }, T0), writtenBySomeoneElse: 'kept' };
    const patch = statusPatch(current, desiredStatus(...withStatus(token(1, current)), live, { address: 'ci@acme.example' }, T1));
    expect(patch).toEqual({ status: { secretName: null } });
  });

  it('patches a resource that has no status yet', () => {
    expect(statusPatch(undefined, desiredStatus(...withStatus(token(1)), pending, {}, T0))?.status).toMatchObject({
      observedGeneration: 1,
      conditions: [expect.objectContaining({ reason: 'TokenPending' })],
    });
  });
});

describe('StatusSync: the one exit of status', () => {
  it('patches once, and not again for the same outcome', async () => {
    const { writer, patches } = recordingWriter();
    const sync = new StatusSync(writer);
    const obj = token(1);
    expect(await sync.sync(obj, live, { address: 'ci@acme.example' }, T0)).toBe(true);
    expect(patches).toHaveLength(1);
    const after = token(1, merged(obj.status, patches[0] as { status: Record<string, unknown> }));
    expect(await sync.sync(after, live, { address: 'ci@acme.example' }, T1)).toBe(false);
    expect(patches).toHaveLength(1);
    expect(await sync.sync(after, notReady('GatewayToken', 'acme', 'ci', 'DuplicateHash', 'x'), { address: 'ci@acme.example' }, T1)).toBe(true);
    expect(patches).toHaveLength(2);
  });

  it('does not patch again while the cache still shows the status from before its own patch', async () => {
    const { writer, patches } = recordingWriter();
    const sync = new StatusSync(writer);
    const stale = token(1);
    expect(await sync.sync(stale, live, { address: 'ci@acme.example' }, T0)).toBe(true);
    // The informer has not delivered our patch yet: the same object, with no status, comes back.
    expect(await sync.sync(stale, live, { address: 'ci@acme.example' }, T1)).toBe(false);
    expect(patches).toHaveLength(1);
    // A real change during the lag is patched, keeping the transition time of our own write.
    expect(await sync.sync(stale, { ...live, message: 'reworded' }, { address: 'ci@acme.example' }, T1)).toBe(true);
    const second = patches[1] as { status: { conditions: Array<{ lastTransitionTime: string }> } };
    expect(second.status.conditions[0]?.lastTransitionTime).toBe('2026-03-01T10:00:00Z');
  });

  it('trusts the cache when it shows a status someone else wrote', async () => {
    const { writer, patches } = recordingWriter();
    const sync = new StatusSync(writer);
    await sync.sync(token(1), live, { address: 'ci@acme.example' }, T0);
    const edited = token(1, { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'False', reason: 'ByHand' }] });
    expect(await sync.sync(edited, live, { address: 'ci@acme.example' }, T1)).toBe(true);
    expect(patches).toHaveLength(2);
  });
});
