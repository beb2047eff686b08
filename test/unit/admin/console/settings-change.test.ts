import { describe, expect, it } from 'vitest';
import { changedFields, mergePatch, switchedModels } from '../../../../src/admin/console/settings-change.js';
import { normalizeModelId } from '../../../../src/models/normalize.js';

describe('settings changes in a cluster', () => {
  it('applies a JSON merge patch as RFC 7386 says: objects merged, lists and scalars replaced, null removes', () => {
    const target = { tokenDomain: 'a', spendLimits: { timeZone: 'UTC', perToken: [{ window: 'daily', usd: 1 }], refuseUnpriced: true }, secretScanning: true };
    expect(mergePatch(target, { spendLimits: { timeZone: 'Europe/Paris', perToken: [] }, secretScanning: null })).toEqual({
      tokenDomain: 'a',
      spendLimits: { timeZone: 'Europe/Paris', perToken: [], refuseUnpriced: true },
    });
    expect(target.spendLimits.timeZone).toBe('UTC');
  });

  it('names the fields that differ, following objects down and comparing lists whole', () => {
    const before = { endUserRecording: false, models: { vendor: { enabled: ['a', 'b'] } }, spendLimits: { timeZone: 'UTC' } };
    const after = { endUserRecording: true, models: { vendor: { enabled: ['a'] }, provider_a: { enabled: ['x'] } }, spendLimits: { timeZone: 'UTC' } };
    expect(changedFields(before, after, 'spec')).toEqual(['spec.endUserRecording', 'spec.models.provider_a', 'spec.models.vendor.enabled']);
    expect(changedFields(before, structuredClone(before), 'spec')).toEqual([]);
  });

  it('switches one model in a provider list, making "*" and the default explicit first', () => {
    const listed = ['m-1', 'm-2', 'm-3'];
    expect(switchedModels(undefined, true, listed, 'm-2', false, normalizeModelId)).toEqual(['m-1', 'm-3']);
    expect(switchedModels(undefined, false, listed, 'm-2', true, normalizeModelId)).toEqual(['m-2']);
    expect(switchedModels(['*'], false, listed, 'm-1', false, normalizeModelId)).toEqual(['m-2', 'm-3']);
    expect(switchedModels(['M.2'], false, listed, 'm-2', false, normalizeModelId)).toEqual([]);
  });
});
