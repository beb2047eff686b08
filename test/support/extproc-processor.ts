import { hashToken } from '../../src/auth/token.js';
import type { GrpcTransport } from '../../src/config/serve-config.js';
import { startExtProcServer, type ExtProcServer } from '../../src/extproc/extproc-server.js';
import { ServedModels } from '../../src/models/served-models.js';
import { DEFAULT_PIPELINE_CONFIG } from '../../src/pipeline/config.js';
import type { PipelineEvents } from '../../src/pipeline/events.js';
import { Pipeline } from '../../src/pipeline/pipeline.js';
import { MemoryState } from '../../src/state/memory.js';
import { company, credential } from '../unit/support/records.js';

const SILENT: PipelineEvents = { requestFinished() {}, seatWindowExhausted() {}, redaction() {}, stateError() {}, leaseChanged() {} };

export interface PlanningProcessor {
  readonly server: ExtProcServer;
  /** Stream failures the server logged (its logger's error lines). */
  readonly failures: string[];
}

/**
 * The real processor in process on loopback, for the wire-level ext_proc tests: one company
 * whose one caller holds `token`, one vendor key at an address nothing serves (these tests
 * only plan; no request is forwarded), events discarded.
 */
export async function startPlanningProcessor(token: string, transport: GrpcTransport, { maxConcurrency = 1000 } = {}): Promise<PlanningProcessor> {
  const state = new MemoryState();
  await state.replaceCompany(
    company({
      tokens: [{ hash: hashToken(token), company: 'acme', name: 'alice', address: 'alice@acme.example' }],
      credentials: [credential({ name: 'key', baseUrl: 'http://127.0.0.1:9', maxConcurrency })],
    }),
  );
  const pipeline = new Pipeline({ state, servedModels: new ServedModels(async () => null), redactor: null, events: SILENT, config: DEFAULT_PIPELINE_CONFIG });
  const failures: string[] = [];
  const server = await startExtProcServer(pipeline, { host: '127.0.0.1', port: 0 }, { error: (_fields: unknown, message: string) => failures.push(message) }, undefined, transport);
  return { server, failures };
}
