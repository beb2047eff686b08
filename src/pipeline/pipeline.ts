import { readAttribution } from '../attribution/attribution.js';
import { authenticate } from '../auth/authenticate.js';
import { readSeatWindows } from '../credentials/seat-windows.js';
import { GatewayError, isGatewayError } from '../errors/gateway-error.js';
import { GATEWAY_MESSAGES, MESSAGES, REQUEST_MESSAGES } from '../errors/messages.js';
import { renderGatewayError } from '../errors/render.js';
import { JsonMeter } from '../metering/json-meter.js';
import { SseMeter } from '../metering/sse-meter.js';
import { emptyUsage } from '../metering/usage.js';
import type { ServedModels } from '../models/served-models.js';
import { authorizeModel } from '../policy/authorize-model.js';
import type { CredentialRecord } from '../state/records.js';
import type { PipelineConfig } from './config.js';
import { attributionHeaders } from './attribution-headers.js';
import { takeCallerSlot } from './caller-slot.js';
import { RequestContext } from './context.js';
import { takeLease } from './credential-lease.js';
import type { FinishedInfo, PipelineEvents } from './events.js';
import { forwardHeaders } from './forward-headers.js';
import type { GovernanceDeps } from './governance-deps.js';
import { refuseDuplicates, refuseOversizedHead } from './header-shape.js';
import { keepHeld, releaseHoldings } from './holdings.js';
import { findTopLevelString } from './json-top-level.js';
import { modelsListBody } from './models-response.js';
import type { CredentialHealthPort, PipelineState, RedactorPort } from './ports.js';
import { readBodyFields } from './request-body.js';
import { newRequestId } from './request-id.js';
import { tracedModelOf, usageRecordOf } from './request-record.js';
import { decodeRequestBody } from './request-encoding.js';
import { tooLarge } from './too-large.js';
import { relayedResponseHeaders } from './response-headers.js';
import { matchRoute } from './routes.js';
import { reserveSpend, spendSettlement } from './spend-reservation.js';
import { failClosed, inBackground } from './state-calls.js';
import { providerTraceHeaders } from './trace-headers.js';
import type { TraceParent, TracerPort } from './tracing.js';
import type { BodyOutcome, EndOutcome, HeaderMap, HeadersOutcome, LocalResponse, RequestHead, ResponseDecision } from './types.js';

export interface PipelineDeps {
  readonly state: PipelineState;
  readonly servedModels: ServedModels<CredentialRecord>;
  readonly redactor: RedactorPort | null;
  readonly events: PipelineEvents;
  readonly config: PipelineConfig;
  /** Confirms suspected key rejections and probes rejected keys; without it, health never changes. */
  readonly health?: CredentialHealthPort;
  /** Null (the default) when tracing is off: then no span is ever made. */
  readonly tracer?: TracerPort | null;
  readonly now?: () => number;
  readonly newRequestId?: () => string;
}

interface UpstreamAddress {
  readonly origin: string;
  readonly basePath: string;
}

/**
 * The request, phase by phase (DESIGN §4), with no transport in sight. Both
 * data planes (gw serve and the ext_proc service) drive these same methods:
 * begin → onRequestHeaders → onRequestBody → onResponseHeaders →
 * onResponseChunk* → finish. A behaviour difference between them is a bug.
 */
export class Pipeline {
  private readonly state: PipelineState;
  private readonly served: ServedModels<CredentialRecord>;
  private readonly redactor: RedactorPort | null;
  private readonly events: PipelineEvents;
  private readonly health: CredentialHealthPort | null;
  private readonly tracer: TracerPort | null;
  readonly config: PipelineConfig;
  private readonly now: () => number;
  private readonly newRequestId: () => string;
  private readonly addresses = new WeakMap<CredentialRecord, UpstreamAddress>();
  /** Caller slots, spend and credential leases: what a request holds and gives back. */
  private readonly governance: GovernanceDeps;

  constructor(deps: PipelineDeps) {
    this.state = deps.state;
    this.served = deps.servedModels;
    this.redactor = deps.redactor;
    this.events = deps.events;
    this.health = deps.health ?? null;
    this.config = deps.config;
    this.tracer = deps.tracer ?? null;
    this.now = deps.now ?? Date.now;
    this.newRequestId = deps.newRequestId ?? newRequestId;
    this.governance = { state: this.state, events: this.events, config: this.config, health: this.health, now: this.now };
  }

  /** `traceParent`: trace context from the data plane's own hop (Envoy's), preferred to the caller's header. */
  begin(head: RequestHead, traceParent: TraceParent | null = null): RequestContext {
    const { route, query } = matchRoute(head.method, head.path, this.config.pathPrefix);
    const ctx = new RequestContext(this.newRequestId(), this.now(), head, route, query);
    if (this.tracer !== null) ctx.trace = this.tracer.startRequest(head, ctx.requestId, traceParent);
    return ctx;
  }

  /** Phase 1: route, authenticate, take a caller slot. */
  async onRequestHeaders(ctx: RequestContext): Promise<HeadersOutcome> {
    try {
      if (ctx.route === null) {
        const path = ctx.head.path.split('?')[0]?.slice(0, 200) ?? '';
        throw new GatewayError('not_found', REQUEST_MESSAGES.noRoute(ctx.head.method.slice(0, 16), path));
      }
      refuseDuplicates(ctx.head);
      if (ctx.route === 'base') {
        // Claude Code pre-connects with an unauthenticated HEAD: answer it, touch nothing.
        ctx.status = 200;
        return {
          kind: 'respond',
          response: {
            status: 200,
            headers: [
              ['x-gw-request-id', ctx.requestId],
              ['request-id', ctx.requestId],
            ],
            body: '',
          },
        };
      }
      const authSpan = ctx.trace?.phase('authenticate');
      const token = await this.guard('token lookup', () => authenticate(ctx.head.headers, this.state));
      const company = await this.guard('company lookup', () => this.state.getCompany(token.company));
      if (!company) {
        // A token without its company is a state caught mid-rebuild (or a removed company): only a complete state may say 401.
        if (!(await this.guard('state check', () => this.state.loaded()))) throw new GatewayError('unavailable', MESSAGES.stateRebuilding);
        throw new GatewayError('no_session', MESSAGES.noLiveToken);
      }
      authSpan?.end();
      ctx.token = token;
      ctx.company = company;
      refuseOversizedHead(ctx.head, { maxHeaders: this.config.maxRequestHeaders, maxHeaderBytes: this.config.maxRequestHeaderBytes });
      // Only an authenticated caller learns the size limit: a declared body over it is refused
      // after the bearer is checked and before a byte of the body is read or buffered.
      const declared = ctx.head.headers['content-length'];
      if (declared !== undefined && Number(declared) > this.config.maxBodyBytes) throw tooLarge(this.config.maxBodyBytes);
      ctx.attribution = readAttribution(attributionHeaders(ctx.head.headers), company.settings);
      if (ctx.route === 'models') {
        ctx.status = 200;
        const body = await modelsListBody(company, this.served, ctx.query);
        return {
          kind: 'respond',
          response: {
            status: 200,
            headers: [
              ['content-type', 'application/json'],
              ['x-gw-source', 'gateway'],
              ['x-gw-request-id', ctx.requestId],
              ['request-id', ctx.requestId],
            ],
            body,
          },
        };
      }
      await takeCallerSlot(this.governance, ctx, token, company);
      keepHeld(this.governance, ctx);
      return { kind: 'body' };
    } catch (error) {
      return { kind: 'respond', response: this.errorResponse(ctx, error) };
    }
  }

  /** Phase 2: read the body's few fields, decide model and policy, redact, lease, plan the forward. */
  async onRequestBody(ctx: RequestContext, received: Buffer): Promise<BodyOutcome> {
    try {
      const company = ctx.company;
      if (!company || !ctx.token) throw new GatewayError('internal_error', GATEWAY_MESSAGES.bodyBeforeAuthentication);
      if (received.length > this.config.maxBodyBytes) throw tooLarge(this.config.maxBodyBytes);
      const decoded = await decodeRequestBody(received, ctx.head.headers['content-encoding'], this.config.maxBodyBytes);
      const body = decoded ?? received;
      const fields = readBodyFields(body, ctx.route === 'messages');
      ctx.stream = fields.stream && ctx.route === 'messages';
      const policySpan = ctx.trace?.phase('policy');
      const decision = await this.guard('model lists', () => authorizeModel(fields.model, company, this.served));
      ctx.model = decision;
      policySpan?.end();
      if (ctx.route === 'messages') {
        const spendSpan = ctx.trace?.phase('spend');
        await reserveSpend(this.governance, ctx, decision.price, body.length, fields.maxTokens ?? 0);
        spendSpan?.end({ 'gw.spend.reserved': ctx.spend !== null });
      }

      let out = body;
      if (company.settings.secretScanning && this.redactor) {
        // Every byte is scanned; if the scan fails the request fails with it rather than go out unscanned.
        const redactionSpan = ctx.trace?.phase('redaction');
        const result = await this.redactor(out);
        redactionSpan?.end(redactionAttributes(result.countsByRule));
        out = result.body;
        if (Object.keys(result.countsByRule).length > 0) {
          ctx.redactions = result.countsByRule;
          this.events.redaction(company.company, result.countsByRule, ctx.requestId, ctx.trace);
        }
      }
      if (decision.forwardId !== fields.model) out = spliceModel(out, decision.forwardId);

      const session = ctx.head.headers['x-claude-code-session-id'] ?? fields.sessionId;
      const credential = (await takeLease(this.governance, ctx, company, decision, session)).credential;
      const address = this.addressOf(credential);
      const headers = forwardHeaders(ctx.head.headers, credential, out.length);
      if (ctx.trace !== null) ctx.upstreamSpan = ctx.trace.phase('upstream', { 'server.address': address.origin });
      providerTraceHeaders(company.settings.traceContextToProvider === true, ctx.upstreamSpan, headers);
      const endpoint = ctx.route === 'count_tokens' ? '/v1/messages/count_tokens' : '/v1/messages';
      return {
        kind: 'forward',
        plan: {
          origin: address.origin,
          path: address.basePath + endpoint + ctx.query,
          // A decoded body goes upstream as plain JSON.
          removeHeaders: decoded === null ? headers.remove : [...headers.remove, 'content-encoding'],
          setHeaders: headers.set,
          body: out,
        },
      };
    } catch (error) {
      return { kind: 'respond', response: this.errorResponse(ctx, error) };
    }
  }

  /** Phase 3: tag the provider's answer, learn seat windows and credential health from it. */
  onResponseHeaders(ctx: RequestContext, status: number, headers: HeaderMap): ResponseDecision {
    ctx.status = status;
    if (ctx.trace !== null) {
      ctx.upstreamSpan?.event('response_headers', { 'http.response.status_code': status });
      ctx.streamSpan = ctx.trace.phase('stream');
    }
    const lease = ctx.lease;
    if (lease) {
      const credential = lease.credential;
      if (credential.kind === 'subscriptionSeat') {
        const windows = readSeatWindows(headers);
        if (windows.length > 0) {
          inBackground(this.events, 'seat windows', this.state.updateSeatWindows(lease.company, credential.name, windows));
          for (const w of windows) if (w.exhausted) this.events.seatWindowExhausted(lease.company, credential.name, w.window, w.resetAt);
        }
      }
      // One caller's 401/403 is that caller's answer (relayed as is); only the gateway's own key check may mark the key.
      if (status === 401 || status === 403) this.health?.suspect(credential, status);
    }
    const contentType = headers['content-type'] ?? '';
    const streaming = contentType.startsWith('text/event-stream');
    ctx.usage = emptyUsage();
    ctx.meter = streaming ? new SseMeter(ctx.usage) : new JsonMeter(ctx.usage);
    const policy = relayedResponseHeaders(headers, ctx.requestId, ctx.attribution.warning);
    return { removeHeaders: policy.remove, addHeaders: policy.add, streaming };
  }

  /** Phase 4, per chunk: the data plane has already passed the chunk on; meter it on the side. */
  onResponseChunk(ctx: RequestContext, chunk: Uint8Array): void {
    if (ctx.firstByteAt === null) {
      ctx.firstByteAt = this.now();
      ctx.upstreamSpan?.event('first_byte');
    }
    ctx.meter?.push(chunk);
  }

  /**
   * Phase 5, on every ending (normal, client disconnect, upstream reset,
   * shutdown): release the lease and the caller slot, and write exactly one
   * usage record with what was seen. Safe to call more than once.
   */
  async finish(ctx: RequestContext, outcome: EndOutcome): Promise<void> {
    if (ctx.finished) return;
    ctx.finished = true;
    // Metered first: the spend settled with the record reads the usage.
    ctx.meter?.end();
    await releaseHoldings(this.governance, ctx);

    const end = this.now();
    const ttfb = ctx.firstByteAt === null ? null : ctx.firstByteAt - ctx.startedAt;
    const finalOutcome = ctx.fault !== null ? 'gateway_error' : outcome;
    const record = usageRecordOf(ctx, end, ttfb, finalOutcome);
    const spend = spendSettlement(ctx);
    if (record) {
      try {
        await this.state.recordUsage(record, spend);
      } catch (error) {
        this.events.stateError('record usage', error);
      }
    }
    const info: FinishedInfo = {
      requestId: ctx.requestId,
      route: ctx.route,
      method: ctx.head.method,
      status: ctx.status,
      fault: ctx.fault,
      company: ctx.company?.company ?? null,
      address: ctx.token?.address ?? null,
      durationMs: end - ctx.startedAt,
      ttfbMs: ttfb,
      outcome: finalOutcome,
      traceId: ctx.trace?.traceId ?? null,
      spanId: ctx.trace?.spanId ?? null,
      responseModel: ctx.meter?.responseModel ?? null,
    };
    ctx.trace?.end(record, info, tracedModelOf(ctx));
    this.events.requestFinished(record, info);
  }

  /** Render any failure as a gateway error, and remember it for the record. */
  errorResponse(ctx: RequestContext, error: unknown): LocalResponse {
    const gatewayError = isGatewayError(error) ? error : new GatewayError('internal_error', GATEWAY_MESSAGES.internal);
    if (!isGatewayError(error)) this.events.stateError('pipeline', error);
    ctx.status = gatewayError.status;
    ctx.fault = gatewayError.fault;
    return renderGatewayError(gatewayError, ctx.requestId);
  }

  private addressOf(credential: CredentialRecord): UpstreamAddress {
    let address = this.addresses.get(credential);
    if (!address) {
      const url = new URL(credential.baseUrl);
      address = { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
      this.addresses.set(credential, address);
    }
    return address;
  }

  private guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    return failClosed(this.events, operation, run);
  }
}

export { tooLarge } from './too-large.js';

function spliceModel(body: Buffer, model: string): Buffer {
  const span = findTopLevelString(body, 'model');
  if (!span) return body;
  return Buffer.concat([body.subarray(0, span[0]), Buffer.from(JSON.stringify(model)), body.subarray(span[1])]);
}

function redactionAttributes(counts: Readonly<Record<string, number>>): Record<string, string | number | boolean> {
  let total = 0;
  for (const n of Object.values(counts)) total += n;
  // Rule ids only: never what was found.
  return { 'gw.redaction.count': total, 'gw.redaction.rules': Object.keys(counts).sort().join(',') };
}
