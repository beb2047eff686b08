import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/observability/logger.js';
import { EventRecorder } from '../../../src/operator/events.js';
import { FINALIZER, type ClusterToken } from '../../../src/operator/kube-objects.js';
import type { KubeWriter } from '../../../src/operator/kube-writer.js';
import { OperatorMetrics } from '../../../src/operator/operator-metrics.js';
import { NamespaceReconciler, type ReconcilerDeps } from '../../../src/operator/reconcile-namespace.js';
import type { RevocationLedger } from '../../../src/operator/revocation-ledger.js';
import type { ClusterView } from '../../../src/operator/snapshot.js';

const NS = 'acme';

function token(resourceVersion: string, finalizers: string[] = []): ClusterToken {
  return {
    apiVersion: 'gw.io/v1alpha1',
    kind: 'GatewayToken',
    metadata: { name: 'ci', namespace: NS, uid: 'u-ci', generation: 1, resourceVersion, finalizers },
    spec: { tokenHash: 'sha256:' + 'a'.repeat(64) },
  };
}

/** A cache that shows whatever the test puts in it, and a writer that records finalizer patches (every other write is unexpected). */
function harness(): { reconciler: NamespaceReconciler; show: (t: ClusterToken) => void; patches: Array<{ finalizers: string[]; resourceVersion: string | undefined }> } {
  let cached: ClusterToken[] = [];
  const view: ClusterView = { tokens: () => cached, credentials: () => [], settings: () => [], secrets: () => [] };
  const patches: Array<{ finalizers: string[]; resourceVersion: string | undefined }> = [];
  const unexpected = async (): Promise<never> => {
    throw new Error('unexpected write');
  };
  const writer: KubeWriter = {
    patchStatus: unexpected,
    setFinalizers: async (_kind, _ns, _name, finalizers, resourceVersion) => void patches.push({ finalizers, resourceVersion }),
    createSecret: unexpected,
    readSecret: unexpected,
    deleteSecret: unexpected,
    createEvent: unexpected,
  };
  const logger = createLogger('silent');
  const metrics = new OperatorMetrics(false);
  const deps: ReconcilerDeps = {
    view,
    writer,
    // reportStatus with no reconcile before it reads neither Redis nor the ledger.
    state: {} as ReconcilerDeps['state'],
    events: new EventRecorder(writer, 'test', logger, metrics),
    metrics,
    logger,
    isLeader: () => true,
    epoch: () => 1,
    ledger: {} as RevocationLedger,
    tokenExists: async () => true,
    synced: () => true,
  };
  return { reconciler: new NamespaceReconciler(deps), show: (t) => (cached = [t]), patches };
}

describe('the finalizer pass judges from the cache, not from what this replica saw', () => {
  it('patches once while the cache lags behind its own patch', async () => {
    const { reconciler, show, patches } = harness();
    show(token('10'));
    await reconciler.reportStatus(NS);
    await reconciler.reportStatus(NS);
    expect(patches).toEqual([{ finalizers: [FINALIZER], resourceVersion: '10' }]);
  });

  it('adds the finalizer again when a newer copy lacks it, though this replica never saw it there', async () => {
    const { reconciler, show, patches } = harness();
    show(token('10'));
    await reconciler.reportStatus(NS);
    // Our patch made version 11 (with the finalizer); someone removed it in 12. The cache skipped 11.
    show(token('12'));
    await reconciler.reportStatus(NS);
    expect(patches).toEqual([
      { finalizers: [FINALIZER], resourceVersion: '10' },
      { finalizers: [FINALIZER], resourceVersion: '12' },
    ]);
  });

  it('does the same as a replica that saw every version', async () => {
    const { reconciler, show, patches } = harness();
    show(token('10'));
    await reconciler.reportStatus(NS);
    show(token('11', [FINALIZER]));
    await reconciler.reportStatus(NS);
    show(token('12'));
    await reconciler.reportStatus(NS);
    expect(patches.map((p) => p.resourceVersion)).toEqual(['10', '12']);
  });
});
