#!/usr/bin/env node
// The physical floor for the ext_proc benchmark: a grpc-js ext_proc server
// with the same service definition and server options as ours, that answers
// every message at once with an empty "continue" and does nothing else. The
// difference between it and `gw extproc` is what our processor adds.
//
//   node bench/extproc-floor.mjs [--port 0]     prints {"listening":"127.0.0.1:PORT"}
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { stopByItself } from './lifetime.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { externalProcessorService } = await import(resolve(root, 'dist/extproc/proto.js'));
const i = process.argv.indexOf('--port');
const port = i > 0 ? Number(process.argv[i + 1]) : 0;

const CONTINUE = {
  request_headers: Object.freeze({ request_headers: { response: {} } }),
  request_body: Object.freeze({ request_body: { response: {} } }),
  response_headers: Object.freeze({ response_headers: { response: {} } }),
  response_body: Object.freeze({ response_body: { response: {} } }),
  request_trailers: Object.freeze({ request_trailers: {} }),
  response_trailers: Object.freeze({ response_trailers: {} }),
};

const server = new grpc.Server({
  'grpc.max_receive_message_length': 64 * 1024 * 1024,
  'grpc.max_send_message_length': 64 * 1024 * 1024,
  'grpc.keepalive_permit_without_calls': 1,
});
server.addService(externalProcessorService, {
  Process: (call) => {
    call.on('data', (message) => {
      const answer = CONTINUE[message.request];
      if (answer && call.writable) call.write(answer);
    });
    call.on('end', () => call.end());
    call.on('error', () => {});
  },
});
server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (error, bound) => {
  if (error) throw error;
  process.stdout.write(JSON.stringify({ listening: `127.0.0.1:${bound}` }) + '\n');
});
const stop = () => {
  server.forceShutdown();
  process.exit(0);
};
stopByItself(stop);
