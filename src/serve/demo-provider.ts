import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * The built-in demo provider `make run` starts when no provider key and no
 * provider address is given: it speaks the Anthropic Messages wire format
 * (JSON and event streams, token counting, the model list) and answers every
 * request with the same canned text, which says so, so a first curl streams
 * an answer and Usage and Logs fill on a machine with no key and no internet.
 * No model is called; nothing is learned from the prompt but its length.
 */
export const DEMO_LABEL = '[demo provider: canned answer, no model was called]';
const DEMO_TEXT = `${DEMO_LABEL} The gateway is working: this request was authenticated, metered and logged. Set ANTHROPIC_API_KEY (or GW_VENDOR_BASE_URL) before make run to reach a real model.`;
const MODELS = ['claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'];

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-demo-provider': 'canned', 'request-id': `req_demo_${randomBytes(8).toString('hex')}` });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 32 * 1024 * 1024) throw new Error('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function error(res: ServerResponse, status: number, type: string, message: string): void {
  send(res, status, { type: 'error', error: { type, message: `${DEMO_LABEL} ${message}` } });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && path === '/v1/models') {
    return send(res, 200, {
      data: MODELS.map((id) => ({ type: 'model', id, display_name: `${id} (demo)`, created_at: '2025-01-01T00:00:00Z' })),
      has_more: false,
      first_id: MODELS[0],
      last_id: MODELS[MODELS.length - 1],
    });
  }
  if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) return error(res, 404, 'not_found_error', `no route ${req.method} ${path}`);
  let body: { model?: unknown; stream?: unknown; max_tokens?: unknown };
  let raw: string;
  try {
    raw = await readBody(req);
    body = JSON.parse(raw) as typeof body;
  } catch {
    return error(res, 400, 'invalid_request_error', 'the body is not JSON');
  }
  const inputTokens = estimateTokens(raw);
  if (path === '/v1/messages/count_tokens') return send(res, 200, { input_tokens: inputTokens });
  const model = typeof body.model === 'string' ? body.model : 'claude-sonnet-4-5-20250929';
  const maxTokens = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : 64;
  const parts = words(DEMO_TEXT).slice(0, maxTokens);
  const text = parts.join('');
  const outputTokens = parts.length;
  const id = `msg_demo_${randomBytes(8).toString('hex')}`;
  const stopReason = parts.length < words(DEMO_TEXT).length ? 'max_tokens' : 'end_turn';
  const usage = { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (body.stream !== true) {
    return send(res, 200, { id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: stopReason, stop_sequence: null, usage });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-demo-provider': 'canned', 'request-id': `req_demo_${randomBytes(8).toString('hex')}` });
  const event = (name: string, data: unknown): void => {
    res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  event('message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  for (const part of parts) event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } });
  event('content_block_stop', { type: 'content_block_stop', index: 0 });
  event('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
  event('message_stop', { type: 'message_stop' });
  res.end();
}

export function createDemoProvider(): Server {
  return createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) error(res, 500, 'api_error', 'the demo provider failed');
      else res.destroy();
    });
  });
}
