import { describe, expect, it } from 'vitest';
import { ServedModels, type ModelListFetcher } from '../../../src/models/served-models.js';
import type { CredentialRecord } from '../../../src/state/records.js';
import { credential } from '../support/records.js';

const TTL = 10 * 60_000;
const FAILURE_TTL = 60_000;

interface Harness {
  served: ServedModels<CredentialRecord>;
  calls: CredentialRecord[];
  clock: { now: number };
  /** What the next fetches do, in order; the last one repeats. */
  script: Array<readonly string[] | null | Error>;
}

function harness(script: Harness['script'] = [['claude-opus-4-8']]): Harness {
  const clock = { now: 1_000_000 };
  const calls: CredentialRecord[] = [];
  const h: Harness = { served: undefined as unknown as ServedModels<CredentialRecord>, calls, clock, script };
  const fetcher: ModelListFetcher<CredentialRecord> = async (c) => {
    calls.push(c);
    const next = h.script.length > 1 ? h.script.shift() : h.script[0];
    if (next instanceof Error) throw next;
    return next ?? null;
  };
  h.served = new ServedModels(fetcher, () => clock.now, TTL, FAILURE_TTL);
  return h;
}

const vendor = [credential({ name: 'k1' }), credential({ name: 'k2' })];

describe('ServedModels', () => {
  it('fetches with the first credential and indexes ids by normalized form, first spelling kept', async () => {
    const h = harness([['claude-opus-4-8', 'Claude-Opus-4.8', 'claude-sonnet-5']]);
    const list = await h.served.get('acme', 'vendor', vendor);
    expect(h.calls).toEqual([vendor[0]]);
    expect(list?.ids).toEqual(['claude-opus-4-8', 'Claude-Opus-4.8', 'claude-sonnet-5']);
    expect(list?.byNormalized.get('claudeopus48')).toBe('claude-opus-4-8');
    expect(list?.byNormalized.get('claudesonnet5')).toBe('claude-sonnet-5');
  });

  it('answers null without fetching when there is no credential', async () => {
    const h = harness();
    await expect(h.served.get('acme', 'vendor', [])).resolves.toBeNull();
    expect(h.calls).toHaveLength(0);
  });

  it('serves a cached list until its TTL runs out, then refetches', async () => {
    const h = harness([['a'], ['a', 'b']]);
    const first = await h.served.get('acme', 'vendor', vendor);
    h.clock.now += TTL - 1;
    expect(await h.served.get('acme', 'vendor', vendor)).toBe(first);
    expect(h.calls).toHaveLength(1);
    h.clock.now += 1;
    const second = await h.served.get('acme', 'vendor', vendor);
    expect(h.calls).toHaveLength(2);
    expect(second?.ids).toEqual(['a', 'b']);
  });

  it('shares one fetch between concurrent requests', async () => {
    let release: (ids: string[]) => void = () => {};
    let calls = 0;
    const served = new ServedModels(
      () => {
        calls++;
        return new Promise((resolve) => (release = resolve));
      },
      () => 0,
    );
    const pending = [served.get('acme', 'vendor', vendor), served.get('acme', 'vendor', vendor), served.get('acme', 'vendor', vendor)];
    expect(calls).toBe(1);
    release(['claude-opus-4-8']);
    const lists = await Promise.all(pending);
    expect(new Set(lists).size).toBe(1);
    expect(lists[0]?.ids).toEqual(['claude-opus-4-8']);
  });

  it.each([
    ['a rejected fetch', new Error('connect ECONNREFUSED')],
    ['a fetch with no list', null],
  ])('caches %s briefly as "no list", then fetches again', async (_, failure) => {
    const h = harness([failure, ['claude-opus-4-8']]);
    await expect(h.served.get('acme', 'vendor', vendor)).resolves.toBeNull();
    h.clock.now += FAILURE_TTL - 1;
    await expect(h.served.get('acme', 'vendor', vendor)).resolves.toBeNull();
    expect(h.calls).toHaveLength(1);
    h.clock.now += 1;
    const list = await h.served.get('acme', 'vendor', vendor);
    expect(list?.ids).toEqual(['claude-opus-4-8']);
    expect(h.calls).toHaveLength(2);
    // Once a fetch succeeds, the long TTL applies from then on.
    h.clock.now += FAILURE_TTL * 2;
    await h.served.get('acme', 'vendor', vendor);
    expect(h.calls).toHaveLength(2);
  });

  it('keeps lists apart per company, provider and base address', async () => {
    const h = harness([['x']]);
    await h.served.get('acme', 'vendor', vendor);
    await h.served.get('globex', 'vendor', [credential({ name: 'k1', company: 'globex' })]);
    await h.served.get('acme', 'provider_a', [credential({ name: 'a1', provider: 'provider_a', baseUrl: 'https://openrouter.ai/api' })]);
    await h.served.get('acme', 'vendor', [credential({ name: 'k3', baseUrl: 'https://proxy.internal' })]);
    expect(h.calls.map((c) => c.name)).toEqual(['k1', 'k1', 'a1', 'k3']);
    await h.served.get('acme', 'vendor', [vendor[1] as CredentialRecord]);
    expect(h.calls).toHaveLength(4);
  });

  it('forgets everything on clear()', async () => {
    const h = harness([['x']]);
    await h.served.get('acme', 'vendor', vendor);
    h.served.clear();
    await h.served.get('acme', 'vendor', vendor);
    expect(h.calls).toHaveLength(2);
  });
});
