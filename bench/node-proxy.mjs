#!/usr/bin/env node
// The floor for gw serve on this machine: a Node reverse proxy built from the
// same parts as src/serve/gateway-server.ts (node:http server, undici Agent
// with the same pool options, body buffered, answer relayed chunk by chunk
// with back-pressure) and no decisions at all: no auth, no state, no
// metering, no logs. What gw serve adds beyond this is the pipeline's cost;
// what this adds beyond "direct" is the cost of a Node hop.
//
//   node bench/node-proxy.mjs --upstream http://127.0.0.1:PORT [--port 0]
//   prints {"listening":"http://127.0.0.1:PORT"}
import { createServer } from 'node:http';
import { Agent } from 'undici';
import { stopByItself } from './lifetime.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const upstream = new URL(arg('upstream'));
if (upstream.hostname !== '127.0.0.1') throw new Error('node-proxy: loopback upstreams only');
const origin = upstream.origin;
// Pool options as gw serve's (no cap on upstream connections: one per stream in flight).
const dispatcher = new Agent({ keepAliveTimeout: 30_000, headersTimeout: 600_000, bodyTimeout: 600_000 });
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);

const server = createServer({ requestTimeout: 300_000, headersTimeout: 60_000, keepAliveTimeout: 65_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const headers = {};
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      if (!HOP.has(name)) headers[name] = raw[i + 1];
    }
    headers['content-length'] = String(body.length);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let answer;
    try {
      answer = await dispatcher.request({ origin, path: req.url, method: 'POST', headers, body, signal: abort.signal });
    } catch {
      if (!res.headersSent) res.writeHead(502).end();
      return;
    }
    const out = [];
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || HOP.has(name)) continue;
      if (Array.isArray(value)) for (const v of value) out.push(name, v);
      else out.push(name, value);
    }
    res.writeHead(answer.statusCode, out);
    if (String(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) res.flushHeaders();
    answer.body.on('data', (chunk) => {
      if (!res.write(chunk)) answer.body.pause();
    });
    res.on('drain', () => answer.body.resume());
    answer.body.on('end', () => res.end());
    answer.body.on('error', () => res.destroy());
  });
});

server.listen({ port: Number(arg('port', '0')), host: '127.0.0.1', backlog: 4096 }, () => {
  process.stdout.write(JSON.stringify({ listening: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
stopByItself(stop);
