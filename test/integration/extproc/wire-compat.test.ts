/**
 * Our hand-written ext_proc protos against Envoy's own generated Go types
 * (go-control-plane, pinned in test/go/go.mod), in both directions:
 * - Go → TS: every catalogue message encoded by Go decodes with our protos and
 *   re-encodes to the same bytes (in field-number order, see canonical_hex).
 * - TS → Go: every message written by TypeScript decodes with Envoy's types,
 *   has no field Envoy does not know, and equals the Go catalogue entry.
 *
 * The Go output is also kept as a golden file so a go-control-plane upgrade
 * that changes the bytes shows up in review. Regenerate it with
 *   UPDATE_EXTPROC_WIRE_FIXTURES=1 npx vitest run test/integration/extproc/wire-compat.test.ts
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProcessingRequest, decodeProcessingResponse, encodeProcessingRequest, encodeProcessingResponse } from '../../../src/extproc/proto.js';
import { GO_BUILD_TIMEOUT_MS, runGoTool } from '../../support/go-tools.js';
import { requestCatalogue, responseCatalogue } from './wire-catalogue.js';

interface WireFixture {
  name: string;
  type: 'ProcessingRequest' | 'ProcessingResponse';
  hex: string;
  canonical_hex: string;
  json?: string;
}

interface WireFixtureFile {
  comment?: string;
  fixtures: WireFixture[];
}

const GOLDEN = fileURLToPath(new URL('../../fixtures/extproc-wire/go-fixtures.json', import.meta.url));
const updateGolden = process.env.UPDATE_EXTPROC_WIRE_FIXTURES === '1';

let workDir: string;
let generatedText: string;
let fromGo: Map<string, WireFixture>;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'extproc-wire-'));
  const out = join(workDir, 'go-fixtures.json');
  const result = await runGoTool('extproc-wire', ['write', out]);
  expect(result.code, result.stderr).toBe(0);
  generatedText = await readFile(out, 'utf8');
  if (updateGolden) await writeFile(GOLDEN, generatedText);
  const parsed = JSON.parse(generatedText) as WireFixtureFile;
  fromGo = new Map(parsed.fixtures.map((f) => [f.name, f]));
}, GO_BUILD_TIMEOUT_MS);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

function reencode(f: WireFixture, hex: string): string {
  const bytes = Buffer.from(hex, 'hex');
  return f.type === 'ProcessingRequest' ? encodeProcessingRequest(decodeProcessingRequest(bytes)).toString('hex') : encodeProcessingResponse(decodeProcessingResponse(bytes)).toString('hex');
}

describe('ext_proc wire format vs Envoy go-control-plane', () => {
  it('the committed golden file is what the pinned Go types produce', async () => {
    const golden = await readFile(GOLDEN, 'utf8');
    expect(golden, 'regenerate with UPDATE_EXTPROC_WIRE_FIXTURES=1').toBe(generatedText);
  });

  it('the Go and TypeScript catalogues name the same messages', () => {
    const tsNames = [...Object.keys(requestCatalogue), ...Object.keys(responseCatalogue)].sort();
    expect([...fromGo.keys()].sort()).toEqual(tsNames);
  });

  const allNames = [...Object.keys(requestCatalogue).map((n) => ['ProcessingRequest', n] as const), ...Object.keys(responseCatalogue).map((n) => ['ProcessingResponse', n] as const)];

  it.each(allNames)('%s %s: Go bytes decode and re-encode byte for byte', (type, name) => {
    const f = fromGo.get(name);
    expect(f, `${name} missing from the Go output`).toBeDefined();
    if (!f) return;
    expect(f.type).toBe(type);
    expect(reencode(f, f.hex)).toBe(f.canonical_hex);
    expect(reencode(f, f.canonical_hex)).toBe(f.canonical_hex);
  });

  it('decoded Go messages expose the oneof member that Go set', () => {
    const kinds = (name: string): string | undefined => {
      const f = fromGo.get(name);
      if (!f) return undefined;
      const bytes = Buffer.from(f.hex, 'hex');
      return f.type === 'ProcessingRequest' ? decodeProcessingRequest(bytes).request : decodeProcessingResponse(bytes).response;
    };
    expect(kinds('request_headers_get')).toBe('request_headers');
    expect(kinds('response_body_empty_final')).toBe('response_body');
    expect(kinds('answer_request_body_rewrite')).toBe('request_body');
    expect(kinds('immediate_forbidden')).toBe('immediate_response');
    expect(kinds('override_message_timeout')).toBeUndefined();
  });

  it('decodes the shapes the gateway relies on', () => {
    const req = decodeProcessingRequest(Buffer.from(fromGo.get('request_headers_post')?.hex ?? '', 'hex'));
    const latin1 = req.request_headers?.headers?.headers?.find((h) => h.key === 'x-latin1');
    expect(latin1?.raw_value).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(req.request_headers?.end_of_stream).toBeUndefined();
    expect(req.protocol_config?.response_body_mode).toBe('STREAMED');
    expect(req.attributes?.['envoy.filters.http.ext_proc']?.fields?.['request.path']?.stringValue).toBe('/v1/messages');

    const last = decodeProcessingRequest(Buffer.from(fromGo.get('response_body_empty_final')?.hex ?? '', 'hex'));
    expect(last.response_body?.end_of_stream).toBe(true);
    expect(last.response_body?.body ?? Buffer.alloc(0)).toHaveLength(0);

    const imm = decodeProcessingResponse(Buffer.from(fromGo.get('immediate_status_outside_enum')?.hex ?? '', 'hex'));
    expect(imm.immediate_response?.status?.code).toBe(529);
    const forbidden = decodeProcessingResponse(Buffer.from(fromGo.get('immediate_forbidden')?.hex ?? '', 'hex'));
    expect(forbidden.immediate_response?.status?.code).toBe('Forbidden');

    const route = decodeProcessingResponse(Buffer.from(fromGo.get('answer_request_headers_route')?.hex ?? '', 'hex'));
    const sets = route.request_headers?.response?.header_mutation?.set_headers ?? [];
    // BoolValue(false) is present-but-empty on the wire; BoolValue(true) carries the value.
    expect(sets[1]?.append).toEqual({});
    expect(sets[2]?.append).toEqual({ value: true });
    expect(sets[3]?.append_action).toBe('ADD_IF_ABSENT');

    const override = decodeProcessingResponse(Buffer.from(fromGo.get('override_message_timeout')?.hex ?? '', 'hex'));
    expect(override.override_message_timeout).toEqual({ seconds: '5', nanos: 500 });
  });

  it('messages written by TypeScript decode with Envoy Go types to the same values', async () => {
    const fixtures = [
      ...Object.entries(requestCatalogue).map(([name, msg]) => ({
        name,
        type: 'ProcessingRequest',
        hex: encodeProcessingRequest(msg).toString('hex'),
      })),
      ...Object.entries(responseCatalogue).map(([name, msg]) => ({
        name,
        type: 'ProcessingResponse',
        hex: encodeProcessingResponse(msg).toString('hex'),
      })),
    ];
    const file = join(workDir, 'ts-fixtures.json');
    await writeFile(file, JSON.stringify({ fixtures }, null, 2));
    const result = await runGoTool('extproc-wire', ['verify', file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`verified ${fixtures.length} messages`);
  });

  it('the Go verifier rejects a message whose values differ', async () => {
    // Guards the previous test: a verifier that accepted anything would pass it.
    const wrong = structuredClone(responseCatalogue.immediate_forbidden ?? {});
    if (wrong.immediate_response) wrong.immediate_response.details = 'something else';
    const file = join(workDir, 'ts-wrong.json');
    await writeFile(
      file,
      JSON.stringify({
        fixtures: [{ name: 'immediate_forbidden', type: 'ProcessingResponse', hex: encodeProcessingResponse(wrong).toString('hex') }],
      }),
    );
    const result = await runGoTool('extproc-wire', ['verify', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('immediate_forbidden: decoded');
    expect(result.stderr).toContain('something else');
  });
});
