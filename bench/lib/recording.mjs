// One real exchange recorded from the mock (headers, body, each chunk as it arrived), replayed by
// bench/extproc-load.mjs as Envoy would send it; variants carry request bodies of other sizes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { work } from './processes.mjs';
import { SDK_HEADERS, VENDOR_KEY, requestBody } from './requests.mjs';

export async function recordExchange(mock, events, bodyBytes = 4096) {
  await mock.configure({ events, spacingMs: 2 });
  const body = requestBody(4096, true);
  const res = await fetch(mock.url + '/v1/messages', { method: 'POST', headers: { ...SDK_HEADERS, 'x-api-key': VENDOR_KEY }, body });
  const chunks = [];
  for await (const chunk of res.body) chunks.push(Buffer.from(chunk).toString('base64'));
  const responseHeaders = {};
  res.headers.forEach((v, k) => {
    if (k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') responseHeaders[k] = v;
  });
  const requestHeaders = { ...SDK_HEADERS, 'x-gw-repo': 'github.com/acme/widgets', 'x-gw-application': 'bench' };
  const recording = { requestHeaders, requestBody: bodyBytes === 4096 ? body : requestBody(bodyBytes, true), status: res.status, responseHeaders, chunks };
  const file = join(work, `recording-${events}-${bodyBytes}.json`);
  writeFileSync(file, JSON.stringify(recording));
  return { file, chunks: chunks.length, bodyBytes: Buffer.byteLength(recording.requestBody) };
}
