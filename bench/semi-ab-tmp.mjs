import { startMock, writeGatewayFile, startGw, gwHeaders } from './lib/systems.mjs';
import { runLoad, loadJob } from './lib/load-runner.mjs';
import { requestBody } from './lib/requests.mjs';
const mock = await startMock();
await mock.configure({ events: 30, spacingMs: 0 });
const nodeB = JSON.parse(process.argv[2]); const envB = {};
const rounds = Number(process.argv[3] ?? 6);
const targets = [];
for (const [name, env] of [['A', {}], ['B', envB]]) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const f = writeGatewayFile('gw-mab-' + name, mock.url, { secretScanning: false });
  const gw = await startGw('gw-mab-' + name + Date.now(), 'serve', f.file, name === 'B' ? { nodeArgs: nodeB } : {});
  for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
  targets.push({ name, t: { name, url: gw.url, headers: gwHeaders(f.token), pids: [gw.pid] }, gw });
}
const streaming = { mode: 'concurrency', concurrency: 32, connections: 32, durationMs: 4000, warmupMs: 1000, stream: true, eventTiming: false, body: requestBody(4096, true), mock: { events: 30, spacingMs: 0 } };
const res = { A: [], B: [] };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [1, 0] : [0, 1];
  for (const i of order) {
    const { name, t } = targets[i];
    const out = await runLoad(loadJob(t, streaming), t.pids);
    res[name].push(+(out.procs[0].cpuMs / out.completed).toFixed(3));
  }
  console.log(r, res.A.at(-1), res.B.at(-1), (res.B.at(-1) / res.A.at(-1)).toFixed(3));
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = res.A.map((a, i) => res.B[i] / a);
console.log(JSON.stringify({ A: res.A, B: res.B, medA: med(res.A), medB: med(res.B), medRatio: med(ratios).toFixed(3) }));
for (const { gw } of targets) gw.child.kill('SIGTERM');
process.exit(0);
