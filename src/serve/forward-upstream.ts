/**
 * The forwarding half of `gw serve`: the request the pipeline planned goes to
 * the provider (hop-by-hop headers dropped, the plan's headers set), and the
 * answer comes back through the pipeline's response phases, chunk by chunk,
 * with the caller's own pace as the only brake. Also the local answers both
 * halves write.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';
import { CONNECTION_MESSAGES } from '../errors/messages.js';
import type { RequestContext } from '../pipeline/context.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { ForwardPlan, LocalResponse } from '../pipeline/types.js';
import { isHopByHop } from '../upstream/hop-by-hop.js';

/** A gateway answer of its own, unless the caller has already had headers or gone. */
export function sendLocal(res: ServerResponse, response: LocalResponse): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Array<[string, string]> = response.headers.map(([k, v]) => [k, v]);
  headers.push(['content-length', String(Buffer.byteLength(response.body))]);
  res.writeHead(response.status, headers.flat());
  res.end(response.body);
}

/**
 * The header names a Connection header lists, parsed once per message (they are
 * hop-by-hop for that message too); null when there is none.
 */
function connectionTokens(connection: string | undefined): ReadonlySet<string> | null {
  if (connection === undefined) return null;
  // What nearly every message says: both are hop-by-hop already, so nothing more is removed for them.
  if (connection === 'keep-alive' || connection === 'close') return null;
  const tokens = new Set<string>();
  for (const token of connection.toLowerCase().split(',')) {
    const name = token.trim();
    if (name !== '') tokens.add(name);
  }
  return tokens;
}

function upstreamHeaders(req: IncomingMessage, plan: ForwardPlan): Record<string, string> {
  const out: Record<string, string> = {};
  const remove = new Set(plan.removeHeaders);
  const listed = connectionTokens(req.headers.connection);
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (remove.has(name) || isHopByHop(name) || listed?.has(name) === true) continue;
    const value = raw[i + 1] as string;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  for (const [name, value] of plan.setHeaders) out[name] = value;
  return out;
}

export async function forward(
  pipeline: Pipeline,
  dispatcher: Dispatcher,
  ctx: RequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  plan: ForwardPlan,
  done: (outcome: Parameters<Pipeline['finish']>[1]) => void,
  writeIdleTimeoutMs: number,
): Promise<void> {
  const abort = new AbortController();
  let clientGone = false;
  // A caller that reads nothing for this long while we wait to write is cut off (its lease and slot come back).
  let stalled: NodeJS.Timeout | null = null;
  res.on('close', () => {
    if (stalled) clearTimeout(stalled);
    if (!res.writableFinished) {
      clientGone = true;
      abort.abort();
      done('client_disconnect');
    }
  });

  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await dispatcher.request({
      origin: plan.origin,
      path: plan.path,
      method: 'POST',
      headers: upstreamHeaders(req, plan),
      body: plan.body,
      signal: abort.signal,
    });
  } catch (error) {
    if (clientGone) return;
    sendLocal(res, pipeline.errorResponse(ctx, new GatewayError('upstream_unreachable', CONNECTION_MESSAGES.upstreamUnreachable(describeNetworkError(error)))));
    done('upstream_error');
    return;
  }

  // for…in rather than Object.entries: these run once per answer, and the pairs arrays were their garbage.
  const received = upstream.headers;
  const lower: Record<string, string | undefined> = {};
  const listed = connectionTokens(typeof received.connection === 'string' ? received.connection : undefined);
  for (const name in received) {
    const value = received[name];
    if (value === undefined || isHopByHop(name) || listed?.has(name) === true) continue;
    lower[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const decision = pipeline.onResponseHeaders(ctx, upstream.statusCode, lower);
  // Usually nothing to drop (the provider sent no x-gw-* header): then no set is built.
  const removed = decision.removeHeaders.length === 0 ? null : new Set(decision.removeHeaders);
  const out: string[] = [];
  for (const name in lower) {
    if (removed?.has(name) === true) continue;
    const value = received[name] as string | string[];
    if (Array.isArray(value)) for (const v of value) out.push(name, v);
    else out.push(name, value);
  }
  for (const [name, value] of decision.addHeaders) out.push(name, value);
  if (clientGone) {
    upstream.body.destroy();
    return;
  }
  res.writeHead(upstream.statusCode, out);
  if (decision.streaming) res.flushHeaders();

  const body = upstream.body;
  // One socket read of the provider's answer often holds several SSE events, handed over as several chunks in the
  // same tick: corked until the tick ends, they leave in one write instead of one system call each. Nothing waits
  // longer than the tick that received it.
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  body.on('data', (chunk: Buffer) => {
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    // Pass the chunk on first, meter after: metering never delays a byte.
    if (!res.write(chunk)) {
      body.pause();
      stalled ??= setTimeout(() => res.destroy(), writeIdleTimeoutMs);
    }
    pipeline.onResponseChunk(ctx, chunk);
  });
  res.on('drain', () => {
    if (stalled) clearTimeout(stalled);
    stalled = null;
    body.resume();
  });
  body.on('end', () => {
    uncork();
    res.end();
    res.once('finish', () => done('complete'));
  });
  body.on('error', () => {
    if (clientGone) return;
    // The provider reset mid-answer: the status line is gone, so cut the connection rather than fake an end.
    res.destroy();
    done('upstream_error');
  });
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
    return code ?? error.name;
  }
  return 'unknown error';
}
