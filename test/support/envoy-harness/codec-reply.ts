/**
 * Envoy's answers to a request its HTTP/1 codec refuses, or whose head does
 * not arrive within request_headers_timeout, before any filter has run:
 *
 * - a head larger than max_request_headers_kb: 431 "Request Header Fields Too
 *   Large" (envoy/source/common/http/http1/codec_impl.cc, checkMaxHeadersSize,
 *   details http1.headers_too_large);
 * - the head not complete within request_headers_timeout: 408 "request header
 *   timeout" (envoy/source/common/http/conn_manager_impl.cc,
 *   ActiveStream::onRequestHeaderTimeout, details request_header_timeout);
 * - any other parse error: 400 "Bad Request" (codec_impl.cc sendProtocolError,
 *   details http1.codec_error; Envoy names the exact error, the harness cannot).
 *
 * Envoy sends them through the stream's filter manager, so local_reply_config
 * rewrites them too; with no request headers and no metadata yet. The
 * connection closes after the reply. Node reports the same three cases as
 * clientError (HPE_HEADER_OVERFLOW, ERR_HTTP_REQUEST_TIMEOUT, others).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HeaderMap } from './header-map.js';
import { rewriteLocalReply, type LocalReplyConfigDoc } from './local-reply.js';

export function codecReply(error: NodeJS.ErrnoException, socket: Socket, config: LocalReplyConfigDoc | undefined): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, text, details] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'http1.headers_too_large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request header timeout', 'request_header_timeout']
        : [400, 'Bad Request', 'http1.codec_error'];
  const headers = new HeaderMap();
  headers.set('content-type', 'text/plain');
  const reply = rewriteLocalReply(config, { status, headers, body: Buffer.from(text) }, { details, flags: status === 408 ? [] : ['DPE'], metadata: {} });
  reply.headers.set('content-length', String(reply.body.length));
  reply.headers.set('connection', 'close');
  const raw = reply.headers.toNodeRaw();
  let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}\r\n`;
  for (let i = 0; i + 1 < raw.length; i += 2) head += `${raw[i]}: ${raw[i + 1]}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`), reply.body]));
}
