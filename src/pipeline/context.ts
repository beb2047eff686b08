import type { SpendPlan } from '../governance/spend-admission.js';
import type { Attribution } from '../attribution/attribution.js';
import type { Fault } from '../errors/catalogue.js';
import type { JsonMeter } from '../metering/json-meter.js';
import type { SseMeter } from '../metering/sse-meter.js';
import type { Usage } from '../metering/usage.js';
import type { ModelDecision } from '../policy/authorize-model.js';
import type { CompanyRecords, TokenRecord } from '../state/records.js';
import type { Lease } from '../state/state.js';
import type { RouteName } from './routes.js';
import type { PhaseSpan, RequestTrace } from './tracing.js';
import type { RequestHead } from './types.js';

/** Everything the pipeline learns about one request, from its head to its end. */
export class RequestContext {
  readonly requestId: string;
  readonly startedAt: number;
  readonly head: RequestHead;
  readonly route: RouteName | null;
  readonly query: string;

  token: TokenRecord | null = null;
  company: CompanyRecords | null = null;
  attribution: Attribution = {};
  slotHeld = false;
  /** Renews the caller slot and the lease until the request ends: they live exactly as long as it does. */
  renewal: ReturnType<typeof setInterval> | null = null;
  stream = false;
  model: ModelDecision | null = null;
  lease: Lease | null = null;
  redactions: Record<string, number> | null = null;
  /** Spend counters reserved at admission, settled at the end. */
  spend: SpendPlan | null = null;

  status = 0;
  fault: Fault | null = null;
  firstByteAt: number | null = null;
  usage: Usage | null = null;
  meter: SseMeter | JsonMeter | null = null;
  finished = false;
  /** The request's span; null when tracing is off or this request is not sampled. */
  trace: RequestTrace | null = null;
  /** The provider exchange and the relayed stream, open until the end. */
  upstreamSpan: PhaseSpan | null = null;
  streamSpan: PhaseSpan | null = null;

  constructor(requestId: string, startedAt: number, head: RequestHead, route: RouteName | null, query: string) {
    this.requestId = requestId;
    this.startedAt = startedAt;
    this.head = head;
    this.route = route;
    this.query = query;
  }
}
