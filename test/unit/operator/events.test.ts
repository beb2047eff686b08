import { describe, expect, it } from 'vitest';
import { notReady, ready, type ResourceCondition } from '../../../src/reconcile/conditions.js';
import { conditionEvents, EventRecorder, tokenGeneratedEvent, type Announced } from '../../../src/operator/events.js';
import type { ClusterCredential } from '../../../src/operator/kube-objects.js';
import type { EventInput, KubeWriter } from '../../../src/operator/kube-writer.js';
import { OperatorMetrics } from '../../../src/operator/operator-metrics.js';
import { createLogger } from '../../../src/observability/logger.js';

const tokenLive = ready('GatewayToken', 'acme', 'ci', 'token is live as ci@acme.example', { address: 'ci@acme.example' });
const tokenRevoked: ResourceCondition = { ...ready('GatewayToken', 'acme', 'ci', 'token is revoked and is not served'), reason: 'Revoked', address: 'ci@acme.example' };
const tokenPending = notReady('GatewayToken', 'acme', 'ci', 'TokenPending', 'no tokenHash and no generated token Secret yet');
const tokenDuplicate = notReady('GatewayToken', 'acme', 'ci', 'DuplicateHash', 'another GatewayToken in this namespace has the same hash');
const credReady = ready('ProviderCredential', 'acme', 'key', 'credential is in the vendor pool');
const credMissing = notReady('ProviderCredential', 'acme', 'key', 'SecretMissing', 'Secret "key" not found in namespace "acme"');
const credKeyMissing = notReady('ProviderCredential', 'acme', 'key', 'SecretKeyMissing', 'Secret "key" has no key "apiKey"');
const settingsConflict = notReady('GatewaySettings', 'acme', 's', 'SettingsConflict', 'namespace "acme" has 2 GatewaySettings');
const settingsOk = ready('GatewaySettings', 'acme', 's', 'settings applied');

const was = (status: Announced['status'], reason: string): Announced => ({ status, reason });

describe('conditionEvents', () => {
  it('says nothing while a condition stays as it was', () => {
    expect(conditionEvents(was('True', 'Revoked'), tokenRevoked)).toEqual([]);
    expect(conditionEvents(was('False', 'SecretMissing'), credMissing)).toEqual([]);
    expect(conditionEvents(was('False', 'SettingsConflict'), settingsConflict)).toEqual([]);
  });

  it('announces a revocation once, as a Normal event with the address', () => {
    expect(conditionEvents(was('True', 'Reconciled'), tokenRevoked)).toEqual([
      { type: 'Normal', reason: 'TokenRevoked', message: 'token ci@acme.example is revoked: its next request fails with 401' },
    ]);
    expect(conditionEvents(undefined, tokenRevoked).map((e) => e.reason)).toEqual(['TokenRevoked']);
  });

  it('does not announce a live token or a token waiting for its generated Secret, but warns about a duplicate hash', () => {
    expect(conditionEvents(undefined, tokenLive)).toEqual([]);
    expect(conditionEvents(was('False', 'TokenPending'), tokenLive)).toEqual([]);
    expect(conditionEvents(undefined, tokenPending)).toEqual([]);
    expect(conditionEvents(undefined, tokenDuplicate)).toEqual([{ type: 'Warning', reason: 'TokenNotReady', message: 'DuplicateHash: another GatewayToken in this namespace has the same hash' }]);
  });

  it('warns when a credential stops being ready, again when the reason changes, and tells when it is back', () => {
    expect(conditionEvents(was('True', 'Reconciled'), credMissing)).toEqual([
      { type: 'Warning', reason: 'CredentialNotReady', message: 'SecretMissing: Secret "key" not found in namespace "acme"; the credential is out of the pool' },
    ]);
    expect(conditionEvents(undefined, credMissing).map((e) => e.reason)).toEqual(['CredentialNotReady']);
    expect(conditionEvents(was('False', 'SecretMissing'), credKeyMissing).map((e) => e.type)).toEqual(['Warning']);
    expect(conditionEvents(was('False', 'SecretMissing'), credReady)).toEqual([{ type: 'Normal', reason: 'CredentialReady', message: 'credential is in the vendor pool' }]);
    expect(conditionEvents(undefined, credReady)).toEqual([]);
  });

  it('warns about a settings conflict and tells when it is resolved', () => {
    expect(conditionEvents(was('True', 'Reconciled'), settingsConflict)).toEqual([{ type: 'Warning', reason: 'SettingsConflict', message: 'namespace "acme" has 2 GatewaySettings' }]);
    expect(conditionEvents(was('False', 'SettingsConflict'), settingsOk).map((e) => e.reason)).toEqual(['SettingsApplied']);
    expect(conditionEvents(undefined, settingsOk)).toEqual([]);
  });

  it('names the Secret and key of a generated token, never its value', () => {
    expect(tokenGeneratedEvent('ci-gwct', 'token')).toEqual({
      type: 'Normal',
      reason: 'TokenGenerated',
      message: 'generated a token and wrote it once to Secret ci-gwct (key "token"); only its hash is stored',
    });
  });
});

describe('EventRecorder', () => {
  function recorder(): { rec: EventRecorder; sent: EventInput[] } {
    const sent: EventInput[] = [];
    const unexpected = async (): Promise<never> => {
      throw new Error('unexpected write');
    };
    const writer: KubeWriter = {
      createEvent: async (e) => void sent.push(e),
      patchStatus: unexpected,
      setFinalizers: unexpected,
      createSecret: unexpected,
      readSecret: unexpected,
      deleteSecret: unexpected,
    };
    return { rec: new EventRecorder(writer, 'pod-1', createLogger('silent'), new OperatorMetrics(false)), sent };
  }
  const cred = (status?: ClusterCredential['status']): ClusterCredential => ({
    apiVersion: 'gw.io/v1alpha1',
    kind: 'ProviderCredential',
    metadata: { name: 'key', namespace: 'acme', uid: 'uid-1', resourceVersion: '7' },
    spec: { provider: 'vendor', kind: 'apiKey', secretRef: { name: 'key', key: 'apiKey' } },
    ...(status ? { status } : {}),
  });

  it('takes the previous condition from status, then from what it announced itself (the cache may lag its own status write)', async () => {
    const { rec, sent } = recorder();
    const stale = cred({ conditions: [{ type: 'Ready', status: 'True', reason: 'Reconciled' }] });
    await rec.observe(stale, credMissing);
    await rec.observe(stale, credMissing);
    expect(sent.map((e) => e.reason)).toEqual(['CredentialNotReady']);
    expect(sent[0]?.involved).toEqual({ kind: 'ProviderCredential', namespace: 'acme', name: 'key', uid: 'uid-1', resourceVersion: '7' });
    rec.forget('uid-1');
    await rec.observe(cred({ conditions: [{ type: 'Ready', status: 'False', reason: 'SecretMissing' }] }), credMissing);
    expect(sent).toHaveLength(1);
  });

  it('never fails a reconcile because an Event could not be written', async () => {
    const failing: KubeWriter = {
      createEvent: async () => {
        throw new Error('forbidden');
      },
    } as unknown as KubeWriter;
    const rec = new EventRecorder(failing, 'pod-1', createLogger('silent'), new OperatorMetrics(false));
    await expect(rec.observe(cred(), credMissing)).resolves.toBeUndefined();
  });
});
