import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { FAULTS, type Fault } from '../../src/errors/catalogue.js';
import { ADMIN_TOKEN, type GatewayProcess } from './gateway-process.js';

/**
 * Helpers for the resilience and hostile-input suites (test/e2e/resilience/):
 * process memory, stderr, raw HTTP over a socket, polling the admin API for
 * one request's usage record, and the shape every gateway error must have.
 */

/** Resident set size of a process in MiB, from /proc/<pid>/status (VmRSS). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) / 1024;
}

/** Samples a process's RSS every `everyMs` until stopped; reports the peak. */
export function watchRss(pid: number, everyMs = 50): { peak(): number; stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      /* the process is gone */
    }
  }, everyMs);
  return {
    peak: () => peak,
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** The soft and hard open-files limits of a process. */
export function nofileLimit(pid: number | 'self'): { soft: number; hard: number } {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const [soft, hard] = (line ?? '').replace('Max open files', '').trim().split(/\s+/);
  const n = (v: string | undefined): number => (v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));
  return { soft: n(soft), hard: n(hard) };
}

/** Everything the process writes to stderr from now on (pino logs go to stdout; crashes and warnings to stderr). */
export function collectStderr(gateway: GatewayProcess): string[] {
  const lines: string[] = [];
  gateway.child.stderr?.on('data', (c: Buffer) =>
    lines.push(
      ...c
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== ''),
    ),
  );
  return lines;
}

/** Node prints these for an unhandled rejection or an uncaught exception. */
export const CRASH_PATTERN = /unhandled|uncaught|UnhandledPromiseRejection|ERR_UNHANDLED|^\s+at .+:\d+:\d+\)?$|Error:/im;

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Poll until `check` returns a value (not undefined), or throw after `attempts`. */
export async function waitUntil<T>(what: string, check: () => Promise<T | undefined> | T | undefined, attempts = 200, everyMs = 50): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await sleep(everyMs);
  }
  throw new Error(`gave up waiting for ${what}`);
}

export async function healthy(gateway: GatewayProcess): Promise<boolean> {
  if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) return false;
  try {
    const res = await fetch(`${gateway.adminUrl}/healthz`);
    await res.text();
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function logsFor(gateway: GatewayProcess, query = ''): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${gateway.adminUrl}/admin/v1/logs?limit=10000${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (res.status !== 200) throw new Error(`admin logs answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: Array<Record<string, unknown>> }).data;
}

/** The usage record of one request (by x-gw-request-id), polled until written. */
export async function recordOf(gateway: GatewayProcess, requestId: string, attempts = 200): Promise<Record<string, unknown>> {
  return waitUntil(`the usage record of ${requestId}`, async () => (await logsFor(gateway)).find((r) => r.request_id === requestId), attempts);
}

export interface RawResponse {
  /** 0 when the connection closed before a status line. */
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly raw: Buffer;
}

/**
 * Send raw bytes (latin1 string or Buffer) over a fresh socket and read until
 * the server closes it; `Connection: close` in the request makes that prompt.
 * Only the first response on the connection is parsed.
 */
export function rawExchange(url: string, bytes: string | Buffer, timeoutMs = 20_000): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(Buffer.concat(chunks)));
    };
    const timer = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(new Error(`no end of response within ${timeoutMs} ms; got: ${Buffer.concat(chunks).toString('latin1').slice(0, 500)}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', finish);
    socket.on('close', finish);
    // A reset after the answer (the server closing while we still write) is not a failure.
    socket.on('error', finish);
    socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  });
}

function parseRaw(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: Buffer.alloc(0), raw };
  const head = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body, raw };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export interface ResponseLike {
  readonly status: number;
  header(name: string): string | null | undefined;
  readonly body: string;
}

export function fromFetch(res: Response, body: string): ResponseLike {
  return { status: res.status, header: (n) => res.headers.get(n), body };
}

export function fromRaw(res: RawResponse): ResponseLike {
  return { status: res.status, header: (n) => res.headers[n.toLowerCase()], body: res.body.toString('utf8') };
}

/**
 * DESIGN §5 / docs/errors.md: either a relayed provider answer
 * (x-gw-source: upstream, no fault) or a gateway error with a catalogued
 * fault and status, the x-gw-* headers and a JSON body whose message
 * begins `gw:`. Returns the fault (null for a relayed answer); throws with a
 * description otherwise. `internal_error` is refused too: on hostile input
 * it would be a defect, not an answer.
 */
export function classify(res: ResponseLike): Fault | null {
  const source = res.header('x-gw-source');
  const describe = (): string => `status ${res.status}, x-gw-source ${String(source)}, body ${res.body.slice(0, 300)}`;
  if (source === 'upstream') {
    if (res.header('x-gw-fault')) throw new Error(`a relayed answer carries a fault: ${describe()}`);
    if (!res.header('x-gw-request-id')) throw new Error(`a relayed answer without x-gw-request-id: ${describe()}`);
    return null;
  }
  if (source !== 'gateway') throw new Error(`neither relayed nor a gateway error: ${describe()}`);
  const fault = res.header('x-gw-fault') as Fault | null | undefined;
  if (!fault || !(fault in FAULTS)) throw new Error(`unknown fault: ${describe()}`);
  if (fault === 'internal_error') throw new Error(`internal_error on hostile input: ${describe()}`);
  if (FAULTS[fault].status !== res.status) throw new Error(`fault ${fault} with the wrong status: ${describe()}`);
  if (!res.header('x-gw-request-id')) throw new Error(`a gateway error without x-gw-request-id: ${describe()}`);
  let parsed: { type?: unknown; error?: { type?: unknown; message?: unknown }; source?: unknown; fault?: unknown; request_id?: unknown };
  try {
    parsed = JSON.parse(res.body) as typeof parsed;
  } catch {
    throw new Error(`a gateway error whose body is not JSON: ${describe()}`);
  }
  if (parsed.type !== 'error' || parsed.source !== 'gateway' || parsed.fault !== fault || parsed.request_id !== res.header('x-gw-request-id')) {
    throw new Error(`a gateway error body that disagrees with its headers: ${describe()}`);
  }
  if (parsed.error?.type !== FAULTS[fault].type) throw new Error(`error.type is not ${FAULTS[fault].type}: ${describe()}`);
  if (typeof parsed.error.message !== 'string' || !parsed.error.message.startsWith('gw:')) throw new Error(`message does not begin "gw:": ${describe()}`);
  return fault;
}

/**
 * What an HTTP parser in front of the pipeline may answer on bytes it refuses:
 * gw serve's own clientError shape (400 invalid_request, 431 headers_too_large), or
 * Envoy's codec (here Node's, inside the harness): a bare 400/431.
 */
export function isParserRefusal(res: RawResponse, parsesHttp: boolean): boolean {
  if (res.status !== 400 && res.status !== 431) return false;
  const fault = res.status === 431 ? 'headers_too_large' : 'invalid_request';
  // Envoy's HTTP/1 codec refused it before any filter ran; local_reply_config put it in our shape.
  if (!parsesHttp) {
    return res.headers['x-gw-source'] === 'gateway' && res.headers['x-gw-fault'] === fault && /"message":"gw: [^"]*\(envoy: http1\.[a-z_.]+\)"/.test(res.body.toString('utf8'));
  }
  return res.headers['x-gw-source'] === 'gateway' && res.headers['x-gw-fault'] === fault && res.headers['x-gw-request-id'] === 'req_unparsed' && /"message":"gw: /.test(res.body.toString('utf8'));
}
