// s11: a hostile soak of a fresh gw serve (issue 20): 200,000 requests (20,000 with --quick) from one
// valid token, most of them hostile (duplicated Authorization, 150 extra headers, bodies that are not
// JSON, bad and missing tokens, x-api-key only, unknown models), the rest ordinary; 20 in flight.
// After every 10,000: RSS, how many answers were not the documented one, whether the credential is
// still healthy, and the latency of one well-behaved request made beside the load.
import { request } from 'undici';
import { QUICK, log, option, runs } from '../lib/options.mjs';
import { stopChild } from '../lib/processes.mjs';
import { memory } from '../lib/procfs.mjs';
import { startGw } from '../lib/systems.mjs';
import { budget } from '../budgets.mjs';

const TOTAL = Number(option('hostile-soak-requests', QUICK ? '20000' : '200000'));
const BATCH = 10_000;
const WORKERS = 20;
const BODY = JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

/** The hostile mix, one kind per request in turn; each with the answer the gateway documents for it. */
function kinds(token) {
  const auth = ['authorization', `Bearer ${token}`, 'content-type', 'application/json'];
  const filler = Array.from({ length: 150 }, (_, i) => [`x-filler-${i}`, 'v']).flat();
  return [
    { name: 'duplicate authorization', expect: 400, headers: [...auth, 'authorization', 'Bearer gwct_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], body: BODY },
    { name: '150 extra headers', expect: 431, headers: [...auth, ...filler], body: BODY },
    { name: 'body not JSON', expect: 400, headers: auth, body: '{"model": "claude-haiku-4-5", "max_tokens": ' },
    { name: 'unknown token', expect: 401, headers: ['authorization', 'Bearer gwct_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'content-type', 'application/json'], body: BODY },
    { name: 'x-api-key only', expect: 401, headers: ['x-api-key', token, 'content-type', 'application/json'], body: BODY },
    { name: 'unknown model', expect: 403, headers: auth, body: JSON.stringify({ model: 'no-such-model-9', max_tokens: 1, messages: [] }) },
    { name: 'duplicate x-gw-repo', expect: 400, headers: [...auth, 'x-gw-repo', 'github.com/a/b', 'x-gw-repo', 'github.com/c/d'], body: BODY },
    { name: 'ordinary', expect: 200, headers: auth, body: BODY },
    { name: 'ordinary', expect: 200, headers: auth, body: BODY },
    { name: 'ordinary', expect: 200, headers: auth, body: BODY },
  ];
}

async function metricValue(adminUrl, pattern) {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  return Number(new RegExp(`^${pattern} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

export default {
  id: 's11',
  order: 75,
  selected: () => runs('s11'),
  async run(ctx) {
    const { mock, memFile } = ctx;
    await mock.configure({ events: 5, spacingMs: 0 });
    const gw = await startGw('gw-hostile-soak', 'serve', memFile.file);
    const mix = kinds(memFile.token);
    const samples = [{ requests: 0, rssMB: memory(gw.pid)?.rssMB ?? null }];
    let done = 0;
    let unexpected = 0;
    let fiveHundreds = 0;
    const t0 = Date.now();
    while (done < TOTAL) {
      const statuses = {};
      let next = 0;
      const batchStart = Date.now();
      const worker = async () => {
        for (;;) {
          const i = next++;
          if (i >= BATCH) return;
          const kind = mix[(done + i) % mix.length];
          try {
            const res = await request(`${gw.url}/v1/messages`, { method: 'POST', headers: kind.headers, body: kind.body });
            await res.body.dump();
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            if (res.statusCode >= 500) fiveHundreds++;
            if (res.statusCode !== kind.expect) unexpected++;
          } catch {
            unexpected++;
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
      done += BATCH;
      const probeStart = performance.now();
      const probe = await request(`${gw.url}/v1/messages`, { method: 'POST', headers: mix[7].headers, body: BODY });
      await probe.body.dump();
      const probeMs = performance.now() - probeStart;
      const unhealthy = await metricValue(gw.adminUrl, 'gw_credential_unhealthy_total\\{[^}]*\\}');
      const sample = { requests: done, rssMB: memory(gw.pid)?.rssMB ?? null, rate: BATCH / ((Date.now() - batchStart) / 1000), statuses, probeStatus: probe.statusCode, probeMs, unhealthy };
      samples.push(sample);
      log(
        `s11: ${done.toLocaleString('en-US')} hostile-mix requests, RSS ${sample.rssMB?.toFixed(1)} MB, ${sample.rate.toFixed(0)}/s, unexpected ${unexpected}, 5xx ${fiveHundreds}, well-behaved probe ${probe.statusCode} in ${probeMs.toFixed(1)} ms, credential unhealthy ${unhealthy}`,
      );
    }
    await stopChild(gw.child);
    (ctx.results.scenarios ??= {}).s11 = { total: done, batch: BATCH, workers: WORKERS, unexpected, fiveHundreds, seconds: (Date.now() - t0) / 1000, samples };
  },

  report({ results }) {
    const s = results.scenarios?.s11;
    if (!s) return null;
    const f = (x, d = 1) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(d));
    const first = s.samples[1];
    const last = s.samples[s.samples.length - 1];
    const worstProbe = Math.max(...s.samples.filter((x) => x.probeMs != null).map((x) => x.probeMs));
    const healthy = s.samples.every((x) => (x.unhealthy ?? 0) === 0);
    const probesOk = s.samples.every((x) => x.probeStatus == null || x.probeStatus === 200);
    const L = [
      '## Hostile soak (s11)',
      '',
      `A fresh gw serve (memory state) answered ${s.total.toLocaleString('en-US')} requests of one valid token in ${f(s.seconds, 0)} s, ${s.workers} in flight, 70% hostile (duplicated Authorization or x-gw-repo, 150 extra headers, bodies that are not JSON, unknown tokens, x-api-key only, unknown models) and 30% ordinary. Answers other than the documented one: ${s.unexpected}; 5xx: ${s.fiveHundreds}; credential healthy throughout: ${healthy ? 'yes' : 'no'}; a well-behaved request beside the load after every batch: ${probesOk ? 'always 200' : 'not always 200'}, at worst ${f(worstProbe)} ms.`,
      '',
      '| requests | RSS MB | req/s | well-behaved request ms | answers by status |',
      '|---|---|---|---|---|',
      ...s.samples.map(
        (x) =>
          `| ${x.requests.toLocaleString('en-US')} | ${f(x.rssMB)} | ${f(x.rate, 0)} | ${f(x.probeMs)} | ${
            x.statuses
              ? Object.entries(x.statuses)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join(', ')
              : 'idle'
          } |`,
      ),
      '',
    ];
    return {
      sections: [L.join('\n')],
      budgets: [
        budget('hostile-soak', null, {
          what: `hostile soak of ${s.total.toLocaleString('en-US')} requests: every answer the documented one, no 5xx, credential healthy, a well-behaved caller served`,
          measuredText: `${s.unexpected} unexpected, ${s.fiveHundreds} 5xx; RSS ${f(first?.rssMB)} → ${f(last?.rssMB)} MB`,
          ok: s.unexpected === 0 && s.fiveHundreds === 0 && healthy && probesOk,
        }),
      ],
    };
  },
};
