#!/usr/bin/env node
// Writes what is derived from the provider table (src/models/providers.ts, PROVIDER_INFO):
//   - the `provider` enum of the ProviderCredential CRD,
//   - the per-provider `models` block of the GatewaySettings CRD,
//   - their copies in charts/model-gateway/crds/,
//   - the chart's list of provider addresses Envoy resolves at start (values.yaml).
// Then run scripts/gen-resource-types.mjs and scripts/gen-config-reference.mjs, which
// derive from the CRDs in turn. Reads the built table (npm run build first).
//
//   node scripts/gen-providers.mjs           write the files
//   node scripts/gen-providers.mjs --check   exit 1 when one is out of date
//
// test/unit/models/providers-generated.test.ts runs --check.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { PROVIDER_INFO } = await import(pathToFileURL(join(ROOT, 'dist', 'models', 'providers.js')).href);
const names = Object.keys(PROVIDER_INFO);

/** Replaces the lines under the one line matching `head` that are indented deeper than it. */
function replaceBlock(text, head, body, file) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => head.test(l));
  if (at === -1) throw new Error(`${file}: no line matches ${head}`);
  const depth = lines[at].length - lines[at].trimStart().length;
  let end = at + 1;
  while (end < lines.length && (lines[end].trim() === '' || lines[end].length - lines[end].trimStart().length > depth)) end++;
  return [...lines.slice(0, at + 1), ...body, ...lines.slice(end)].join('\n');
}

function settingsModels(text, file) {
  const pad = ' '.repeat(20);
  const body = names.flatMap((name) => [
    `${pad}${name}:`,
    `${pad}  type: object`,
    `${pad}  required: [enabled]`,
    `${pad}  properties:`,
    `${pad}    enabled:`,
    `${pad}      type: array`,
    `${pad}      maxItems: 1000`,
    `${pad}      items: {type: string, minLength: 1, maxLength: 200, description: 'A model id, or "*".'}`,
    `${pad}      description: Listed model ids switched on (capitals, dashes and dots ignored); "*" switches on every listed model.`,
    `${pad}  description: Models ${name} lists that are switched on for this company (${PROVIDER_INFO[name].modelsOnByDefault ? 'all on' : 'all off'} when left out).`,
  ]);
  // The `properties:` line right under `models:` of the spec.
  const lines = text.split('\n');
  const models = lines.findIndex((l) => /^ {16}models:$/.test(l));
  if (models === -1) throw new Error(`${file}: no spec.models`);
  const props = lines.findIndex((l, i) => i > models && /^ {18}properties:$/.test(l));
  const before = lines.slice(0, props).join('\n');
  const after = replaceBlock(lines.slice(props).join('\n'), /^ {18}properties:$/, body, file);
  return `${before}\n${after}`;
}

function credentialEnum(text, file) {
  const re = /^( {18}enum: )\[[^\]]*\](\n {18}description: '`vendor` serves bare model ids)/m;
  if (!re.test(text)) throw new Error(`${file}: no provider enum`);
  return text.replace(re, `$1[${names.join(', ')}]$2`);
}

function chartProviders(text, file) {
  const urls = names.map((n) => PROVIDER_INFO[n].baseUrl).filter((u) => u !== null);
  return replaceBlock(
    text,
    /^ {6}providers:$/,
    urls.map((u) => `        - ${u}`),
    file,
  );
}

const outputs = [];
for (const dir of ['crds', join('charts', 'model-gateway', 'crds')]) {
  outputs.push([join(dir, 'gatewaysettings.gw.io.yaml'), settingsModels]);
  outputs.push([join(dir, 'providercredentials.gw.io.yaml'), credentialEnum]);
}
outputs.push([join('charts', 'model-gateway', 'values.yaml'), chartProviders]);

const check = process.argv.includes('--check');
let stale = 0;
for (const [file, derive] of outputs) {
  const path = join(ROOT, file);
  const current = readFileSync(path, 'utf8');
  const wanted = derive(current, file);
  if (wanted === current) continue;
  if (check) {
    process.stderr.write(`${file} is out of date with src/models/providers.ts: run npm run build && node scripts/gen-providers.mjs\n`);
    stale++;
  } else writeFileSync(path, wanted);
}
process.exit(stale > 0 ? 1 : 0);
