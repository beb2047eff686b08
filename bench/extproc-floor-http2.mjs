#!/usr/bin/env node
// A second, lower floor for ext_proc: the same empty "continue" answers as bench/extproc-floor.mjs,
// but served over node:http2 directly, with the gRPC framing (5-byte message prefix, grpc-status
// trailer) done by hand and every answer's bytes computed once. It reads only as much of each
// message as it takes to tell which phase it is. It is not a processor (no deadlines, metadata,
// compression or flow-control care): it measures how much of the grpc-js floor is grpc-js rather
// than Node's HTTP/2, i.e. what a leaner transport could save.
//
//   node bench/extproc-floor-http2.mjs [--port 0]     prints {"listening":"127.0.0.1:PORT"}
import http2 from 'node:http2';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopByItself } from './lifetime.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { encodeProcessingResponse } = await import(resolve(root, 'dist/extproc/proto.js'));
const i = process.argv.indexOf('--port');
const port = i > 0 ? Number(process.argv[i + 1]) : 0;

const frame = (message) => {
  const bytes = encodeProcessingResponse(message);
  const out = Buffer.alloc(5 + bytes.length);
  out.writeUInt32BE(bytes.length, 1);
  bytes.copy(out, 5);
  return out;
};
// ProcessingRequest field number of the phase (2…7) → the framed empty continue for it.
const ANSWER = new Map([
  [2, frame({ request_headers: { response: {} } })],
  [3, frame({ response_headers: { response: {} } })],
  [4, frame({ request_body: { response: {} } })],
  [5, frame({ response_body: { response: {} } })],
  [6, frame({ request_trailers: {} })],
  [7, frame({ response_trailers: {} })],
]);

/** The first phase field (2…7) among a ProcessingRequest's top-level fields. */
function phaseOf(buf, start, end) {
  let at = start;
  while (at < end) {
    let tag = 0;
    let shift = 0;
    let b;
    do {
      b = buf[at++];
      tag |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field >= 2 && field <= 7) return field;
    if (wire === 0) while (buf[at++] & 0x80);
    else if (wire === 2) {
      let len = 0;
      shift = 0;
      do {
        b = buf[at++];
        len |= (b & 0x7f) << shift;
        shift += 7;
      } while (b & 0x80);
      at += len;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else return 0;
  }
  return 0;
}

const server = http2.createServer();
server.on('stream', (stream, headers) => {
  if (headers[':path'] !== '/envoy.service.ext_proc.v3.ExternalProcessor/Process') {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
    return;
  }
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  let pending = null;
  stream.on('data', (chunk) => {
    let buf = pending === null ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    while (buf.length - at >= 5) {
      const len = buf.readUInt32BE(at + 1);
      if (buf.length - at - 5 < len) break;
      const answer = ANSWER.get(phaseOf(buf, at + 5, at + 5 + len));
      if (answer) stream.write(answer);
      at += 5 + len;
    }
    pending = at === buf.length ? null : buf.subarray(at);
  });
  stream.on('end', () => stream.end());
  stream.on('error', () => {});
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ listening: `127.0.0.1:${server.address().port}` }) + '\n');
});
stopByItself(() => {
  server.close();
  process.exit(0);
});
