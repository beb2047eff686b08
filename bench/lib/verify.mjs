// One JSON and one SSE request through every case before measuring: the mock must see each, with the
// vendor key and without the caller's token, the answer must come back whole, and every listener of
// the run must be on loopback.
import { log } from './options.mjs';
import { listeningSockets } from './procfs.mjs';
import { SDK_HEADERS, VENDOR_KEY, requestBody } from './requests.mjs';

export async function verifyCases(mock, cases, pids) {
  const out = {};
  await mock.configure({ events: 5, spacingMs: 1 });
  for (const c of cases) {
    const entry = {};
    for (const stream of [false, true]) {
      const before = await mock.stats();
      const res = await fetch(c.url + '/v1/messages', { method: 'POST', headers: { ...SDK_HEADERS, ...c.headers }, body: requestBody(4096, stream) });
      const text = await res.text();
      const after = await mock.stats();
      const seen = after.lastHeaders ?? {};
      entry[stream ? 'sse' : 'json'] = {
        status: res.status,
        mockReceived: after.messages - before.messages,
        mockPath: after.lastPath,
        vendorKeyUpstream: seen['x-api-key'] === VENDOR_KEY,
        callerTokenLeaked: JSON.stringify(seen).includes('gwct_'),
        bodyBytesUpstream: after.lastBodyBytes,
        intact: stream ? (text.match(/"text":"w\d+/g) ?? []).length === 5 && text.includes('"type":"message_stop"') : text.includes('"usage"'),
      };
    }
    out[c.name] = entry;
    log(`verify ${c.name}: ${JSON.stringify(entry)}`);
  }
  const sockets = listeningSockets(pids);
  return { requests: out, sockets, allLoopback: sockets.length > 0 && sockets.every((s) => s.loopback) };
}

/** Whether a case answered both requests whole through the mock (a peer that does not is left out of the measurements). */
export function passed(entry) {
  return entry && ['json', 'sse'].every((k) => entry[k].status === 200 && entry[k].intact && entry[k].mockReceived === 1);
}
