/**
 * The console's HTTP conventions, apart from what its routes do: the security
 * headers every answer carries, the session cookie, the same-page check a
 * write must pass, and reading a JSON body (once, at most 64 KiB).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONSOLE_MESSAGES as M } from '../../errors/messages.js';

export const CONSOLE_PATH = '/console/';
const COOKIE = 'gw_console';
/** A header a cross-site form or simple request cannot send: together with Origin it stops forged writes. */
export const CONSOLE_HEADER = 'x-gw-console';

/**
 * Strict: only this listener's own scripts and styles, no inline script or
 * style, nothing from another origin, and the page is never framed.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** A request refused with this status and text (in the error catalogue's words). */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function send(res: ServerResponse, status: number, body: string, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store', ...extra });
  res.end(body);
}

export function json(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body), 'application/json; charset=utf-8', extra);
}

export function cookieOf(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=') || null;
  }
  return null;
}

function behindTls(req: IncomingMessage): boolean {
  return (
    (req.socket as { encrypted?: boolean }).encrypted === true ||
    String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      ?.trim() === 'https'
  );
}

export function cookie(req: IncomingMessage, value: string, maxAgeS: number): string {
  return `${COOKIE}=${value}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${behindTls(req) ? '; Secure' : ''}`;
}

/** A write must come from this console's own page: same-origin Origin and the console header. */
export function fromOwnPage(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (typeof origin !== 'string' || typeof host !== 'string' || req.headers[CONSOLE_HEADER] !== '1') return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Refusal(413, M.badRequest('the body is larger than 64 KiB'));
    chunks.push(chunk);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new Refusal(400, M.badRequest('the body must be a JSON object'));
  }
}

export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new Refusal(400, M.badRequest(`"${name}" must be a non-empty string`));
  return value;
}

/** A write's parsed body, read once for its company and then by its handler. */
const bodies = new WeakMap<IncomingMessage, Record<string, unknown>>();

export async function readJsonOnce(req: IncomingMessage): Promise<Record<string, unknown>> {
  const known = bodies.get(req);
  if (known) return known;
  const body = await readJson(req);
  bodies.set(req, body);
  return body;
}

/** The body readJsonOnce read for this request ({} when none was read). */
export function parsedBody(req: IncomingMessage): Record<string, unknown> {
  return bodies.get(req) ?? {};
}
