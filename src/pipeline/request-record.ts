import { costOf } from '../metering/cost.js';
import { isoTime } from '../metering/iso-time.js';
import type { UsageRecord } from '../metering/usage-record.js';
import { emptyUsage } from '../metering/usage.js';
import type { RequestContext } from './context.js';
import type { TracedModel } from './tracing.js';

/**
 * The one usage record of a finished request to /v1/messages or
 * count_tokens (null for any other route, and before authentication): what
 * was metered, at no cost when the gateway answered itself or the route only
 * counts tokens.
 */
export function usageRecordOf(ctx: RequestContext, end: number, ttfb: number | null, outcome: string): UsageRecord | null {
  const token = ctx.token;
  if (!token || (ctx.route !== 'messages' && ctx.route !== 'count_tokens')) return null;
  const usage = ctx.route === 'messages' && ctx.usage ? ctx.usage : emptyUsage();
  const decision = ctx.model;
  const record: UsageRecord = {
    request_id: ctx.requestId,
    time: isoTime(ctx.startedAt),
    company: token.company,
    address: token.address,
    endpoint: ctx.route,
    model: decision?.canonicalId ?? null,
    provider: decision?.provider ?? null,
    provider_model: decision?.forwardId ?? null,
    credential: ctx.lease?.credential.name ?? null,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens,
    cost_usd: ctx.route === 'count_tokens' ? 0 : ctx.fault !== null ? 0 : costOf(usage, decision?.price),
    status: ctx.status,
    fault: ctx.fault,
    stream: ctx.stream,
    duration_ms: end - ctx.startedAt,
    ttfb_ms: ttfb,
    outcome,
  };
  if (decision && decision.parsed.raw !== decision.canonicalId) record.requested_model = decision.parsed.raw;
  if (ctx.attribution.repo !== undefined) record.repo = ctx.attribution.repo;
  if (ctx.attribution.application !== undefined) record.application = ctx.attribution.application;
  if (ctx.attribution.endUser !== undefined) record.end_user = ctx.attribution.endUser;
  if (ctx.redactions) record.redactions = ctx.redactions;
  return record;
}

/** The model attributes of the request's span (GenAI conventions). */
export function tracedModelOf(ctx: RequestContext): TracedModel | null {
  if (ctx.route !== 'messages' && ctx.route !== 'count_tokens') return null;
  return {
    operation: ctx.route === 'messages' ? 'chat' : 'count_tokens',
    provider: ctx.model?.provider ?? null,
    requestModel: ctx.model?.parsed.raw ?? null,
    responseModel: ctx.meter?.responseModel ?? null,
  };
}
