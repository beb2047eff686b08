#!/usr/bin/env node
// The load process of bench/usage-export.mjs's data-plane part: a few callers,
// each sending one small non-streaming Messages request at a time through a
// real `gw serve` (keep-alive), pausing between requests. On SIGTERM prints
// one JSON line: [[epoch ms at the end of the request, latency ms], ...], so the
// orchestrator can cut out the windows it wants.
//   node bench/usage-export-load.mjs --url URL --token T [--callers 2] [--pause-ms 5]
import { Agent, request } from 'node:http';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const url = new URL('/v1/messages', arg('url'));
const token = arg('token');
const CALLERS = Number(arg('callers', '2'));
const PAUSE_MS = Number(arg('pause-ms', '5'));
const agent = new Agent({ keepAlive: true, maxSockets: CALLERS });
const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });
const samples = [];
let failures = 0;
let running = true;

function once() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-gw-repo': 'github.com/acme/widgets' },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) samples.push([Date.now(), Number((performance.now() - started).toFixed(3))]);
          else failures++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      failures++;
      resolve();
    });
    req.end(body);
  });
}

async function caller() {
  while (running) {
    await once();
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
}

const callers = Array.from({ length: CALLERS }, caller);
process.stdout.write(`${JSON.stringify({ listening: 'load' })}\n`);
process.on('SIGTERM', async () => {
  running = false;
  await Promise.all(callers);
  process.stdout.write(`${JSON.stringify({ samples, failures })}\n`, () => process.exit(0));
});
