import { generateToken, hashToken } from '../../../src/auth/token.js';
import type { UsageRecord } from '../../../src/metering/usage-record.js';
import { ServedModels } from '../../../src/models/served-models.js';
import { DEFAULT_PIPELINE_CONFIG, type PipelineConfig } from '../../../src/pipeline/config.js';
import { RequestContext } from '../../../src/pipeline/context.js';
import type { FinishedInfo, PipelineEvents } from '../../../src/pipeline/events.js';
import type { GovernanceDeps } from '../../../src/pipeline/governance-deps.js';
import { Pipeline, type PipelineDeps } from '../../../src/pipeline/pipeline.js';
import type { CredentialHealthPort, RedactorPort } from '../../../src/pipeline/ports.js';
import type { PhaseSpan, RequestTrace, TracePhase, TracerPort } from '../../../src/pipeline/tracing.js';
import type { HeaderMap, RequestHead } from '../../../src/pipeline/types.js';
import type { CompanyRecords, CompanySettings, CredentialRecord, TokenRecord } from '../../../src/state/records.js';
import { MemoryState, type MemoryStateOptions } from '../../../src/state/memory.js';
import type { GatewayState } from '../../../src/state/state.js';
import { company, credential } from '../support/records.js';

/** What the pipeline reported, in order. */
export class RecordedEvents implements PipelineEvents {
  readonly finished: Array<{ record: UsageRecord | null; info: FinishedInfo }> = [];
  readonly stateErrors: Array<{ operation: string; error: unknown }> = [];
  readonly redactions: Array<{ company: string; counts: Readonly<Record<string, number>>; requestId: string }> = [];
  readonly leases: Array<{ credential: string; delta: 1 | -1 }> = [];
  readonly exhausted: Array<{ credential: string; window: string; resetAt: number | null }> = [];

  requestFinished(record: UsageRecord | null, info: FinishedInfo): void {
    this.finished.push({ record, info });
  }
  seatWindowExhausted(_company: string, credential: string, window: string, resetAt: number | null): void {
    this.exhausted.push({ credential, window, resetAt });
  }
  redaction(company: string, counts: Readonly<Record<string, number>>, requestId: string): void {
    this.redactions.push({ company, counts, requestId });
  }
  stateError(operation: string, error: unknown): void {
    this.stateErrors.push({ operation, error });
  }
  leaseChanged(_company: string, credential: string, delta: 1 | -1): void {
    this.leases.push({ credential, delta });
  }
}

export class RecordedHealth implements CredentialHealthPort {
  readonly suspects: Array<{ credential: string; status: number }> = [];
  readonly rejected: string[][] = [];
  suspect(credential: CredentialRecord, status: number): void {
    this.suspects.push({ credential: credential.name, status });
  }
  rejectedInUse(credentials: readonly CredentialRecord[]): void {
    this.rejected.push(credentials.map((c) => c.name));
  }
}

/** A tracer that remembers which phases opened and closed, and what the request span ended with. */
export class RecordedTracer implements TracerPort {
  readonly started: Array<{ requestId: string; parent: unknown }> = [];
  readonly phases: Array<{ name: TracePhase; ended: boolean; attributes?: unknown; events: string[] }> = [];
  ended: { record: UsageRecord | null; info: FinishedInfo; model: unknown } | null = null;

  startRequest(_head: RequestHead, requestId: string, parent: unknown): RequestTrace {
    this.started.push({ requestId, parent });
    const phases = this.phases;
    return {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      phase: (name: TracePhase): PhaseSpan => {
        const entry: { name: TracePhase; ended: boolean; attributes?: unknown; events: string[] } = { name, ended: false, events: [] };
        phases.push(entry);
        return {
          event: (event) => void entry.events.push(event),
          end: (attributes) => {
            entry.ended = true;
            entry.attributes = attributes;
          },
          traceparent: () => `00-0af7651916cd43dd8448eb211c80319c-${String(phases.indexOf(entry)).padStart(16, '0')}-01`,
        };
      },
      end: (record, info, model) => {
        this.ended = { record, info, model };
      },
    };
  }
}

/**
 * A state whose named methods are replaced (to fail, or to answer what a
 * test needs) and whose calls are counted; everything else is the real
 * in-memory state.
 */
export type Overrides = Partial<Record<keyof GatewayState, (...args: never[]) => unknown>>;

export function stateWith(inner: GatewayState, overrides: Overrides, calls: string[] = []): GatewayState {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const override = overrides[property as keyof GatewayState];
      const value = override ?? Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        return (value as (...a: unknown[]) => unknown).apply(override ? undefined : target, args);
      };
    },
  });
}

export const TOKEN = generateToken();
export const OTHER_TOKEN = generateToken();

export interface Harness {
  readonly pipeline: Pipeline;
  readonly memory: MemoryState;
  readonly state: GatewayState;
  readonly events: RecordedEvents;
  readonly health: RecordedHealth;
  readonly clock: { t: number };
  readonly calls: string[];
}

export interface HarnessOptions {
  readonly settings?: Partial<CompanySettings>;
  readonly credentials?: CredentialRecord[];
  /** Replaced state methods; a function receives the real in-memory state to delegate to. */
  readonly overrides?: Overrides | ((memory: MemoryState) => Overrides);
  readonly redactor?: RedactorPort | null;
  readonly tracer?: TracerPort | null;
  readonly config?: Partial<PipelineConfig>;
  readonly servedModels?: ServedModels;
  readonly deps?: Partial<PipelineDeps>;
}

export const START = Date.parse('2026-03-02T10:00:00Z');

export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = { t: START };
  const memory = new MemoryState({ now: () => clock.t });
  await memory.replaceCompany(
    company({
      settings: options.settings,
      tokens: [
        { hash: hashToken(TOKEN), company: 'acme', name: 'alice', address: 'alice@acme.example' },
        { hash: hashToken(OTHER_TOKEN), company: 'acme', name: 'bob', address: 'bob@acme.example' },
      ],
      credentials: options.credentials ?? [credential({ name: 'key', baseUrl: 'https://api.anthropic.com' })],
    }),
  );
  const calls: string[] = [];
  const overrides = typeof options.overrides === 'function' ? options.overrides(memory) : (options.overrides ?? {});
  const state = stateWith(memory, overrides, calls);
  const events = new RecordedEvents();
  const health = new RecordedHealth();
  let n = 0;
  const pipeline = new Pipeline({
    state,
    servedModels: options.servedModels ?? new ServedModels(async () => null),
    redactor: options.redactor ?? null,
    events,
    health,
    tracer: options.tracer ?? null,
    config: { ...DEFAULT_PIPELINE_CONFIG, ...options.config },
    now: () => clock.t,
    newRequestId: () => `req_${++n}`,
    ...options.deps,
  });
  return { pipeline, memory, state, events, health, clock, calls };
}

export function head(method: string, path: string, headers: HeaderMap = {}, extra: Partial<RequestHead> = {}): RequestHead {
  return { method, path, headers, ...extra };
}

export function authed(headers: Record<string, string> = {}, token = TOKEN): HeaderMap {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers };
}

export function messagesBody(fields: Record<string, unknown> = {}): Buffer {
  return Buffer.from(JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...fields }));
}

export function headerValue(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  return headers.find(([k]) => k === name)?.[1];
}

export function errorOf(body: string): { fault: string; message: string; type: string } {
  const parsed = JSON.parse(body) as { fault: string; error: { message: string; type: string } };
  return { fault: parsed.fault, message: parsed.error.message, type: parsed.error.type };
}

/** The governance steps' dependencies over the real in-memory state (methods replaceable), with a request context already authenticated. */
export interface GovernanceFixture {
  readonly deps: GovernanceDeps;
  readonly memory: MemoryState;
  readonly events: RecordedEvents;
  readonly health: RecordedHealth;
  readonly calls: string[];
  readonly clock: { t: number };
  readonly company: CompanyRecords;
  readonly token: TokenRecord;
  /** A fresh authenticated context for POST /v1/messages. */
  context(token?: string): RequestContext;
}

export async function governanceFixture(
  options: { settings?: Partial<CompanySettings>; overrides?: Overrides | ((memory: MemoryState) => Overrides); config?: Partial<PipelineConfig>; memory?: Omit<MemoryStateOptions, 'now'> } = {},
): Promise<GovernanceFixture> {
  const clock = { t: START };
  const memory = new MemoryState({ ...options.memory, now: () => clock.t });
  const tokens = [
    { hash: hashToken(TOKEN), company: 'acme', name: 'alice', address: 'alice@acme.example' },
    { hash: hashToken(OTHER_TOKEN), company: 'acme', name: 'bob', address: 'bob@acme.example' },
  ];
  const records = company({ settings: options.settings, tokens, credentials: [credential({ name: 'key', baseUrl: 'https://api.anthropic.com' })] });
  await memory.replaceCompany(records);
  const calls: string[] = [];
  const overrides = typeof options.overrides === 'function' ? options.overrides(memory) : (options.overrides ?? {});
  const events = new RecordedEvents();
  const health = new RecordedHealth();
  const deps: GovernanceDeps = { state: stateWith(memory, overrides, calls), events, health, config: { ...DEFAULT_PIPELINE_CONFIG, ...options.config }, now: () => clock.t };
  let n = 0;
  return {
    deps,
    memory,
    events,
    health,
    calls,
    clock,
    company: records,
    token: tokens[0] as TokenRecord,
    context(token = TOKEN) {
      const ctx = new RequestContext(`req_${++n}`, clock.t, head('POST', '/v1/messages', authed({}, token)), 'messages', '');
      ctx.company = records;
      ctx.token = tokens.find((t) => t.hash === hashToken(token)) ?? null;
      return ctx;
    },
  };
}
