/**
 * `gw envoy-config` output, checked by the strict go-control-plane validator
 * (test/go/cmd/envoy-validate): decoded with no unknown fields and every
 * typed_config resolved, then the protoc-gen-validate rules of the bootstrap
 * and of every nested Any. A broken render must be refused, so these tests
 * fail if the validator stops looking.
 *
 * The default render is also kept as a golden file; regenerate it with
 *   UPDATE_GOLDEN=1 npx vitest run test/integration/envoy/envoy-config-validate.test.ts
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runEnvoyConfig } from '../../../src/cli/envoy-config.js';
import type { CliIo } from '../../../src/cli/io.js';
import { ensureGoTool, GO_BUILD_TIMEOUT_MS, runGoTool } from '../../support/go-tools.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- editing a generated document */
type J = any;

const GOLDEN = fileURLToPath(new URL('../../fixtures/envoy/generated-default.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gw-envoy-config-'));

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Runs the CLI command into dir/name and returns the path (and the text). */
async function render(name: string, argv: string[]): Promise<{ path: string; text: string }> {
  const path = join(dir, name);
  const err = sink();
  const io: CliIo = { stdin: new PassThrough(), stdout: sink().stream, stderr: err.stream, env: {} };
  const code = await runEnvoyConfig([...argv, '--out', path], io);
  expect(code, err.text()).toBe(0);
  return { path, text: readFileSync(path, 'utf8') };
}

beforeAll(async () => {
  await ensureGoTool('envoy-validate');
}, GO_BUILD_TIMEOUT_MS);

describe('gw envoy-config output passes the strict Envoy validator', () => {
  it.each([
    ['default.yaml', []],
    ['ip-literal-only.yaml', ['--provider', 'http://127.0.0.1:11434']],
    ['unix-one-provider.yaml', ['--processor-socket', '/run/gw/extproc.sock', '--provider', 'https://api.anthropic.com']],
    ['tcp-one-provider.yaml', ['--processor-address', '127.0.0.1:9002', '--provider', 'https://api.anthropic.com']],
    ['tcp-dns-processor.yaml', ['--processor-address', 'gw-extproc.gw.svc.cluster.local:9002', '--provider', 'https://openrouter.ai/api']],
    ['unix-several-providers-prefix.yaml', ['--prefix', '/api', '--provider', 'https://api.anthropic.com', '--provider', 'https://openrouter.ai/api', '--provider', 'http://ollama.local:11434']],
    [
      'tcp-several-providers-tuned.yaml',
      [
        '--processor-address',
        '[::1]:9002',
        '--providers',
        'https://api.anthropic.com,http://10.0.0.7:8000/v1,https://[2001:db8::5]:8443',
        '--listen-address',
        '::',
        '--listen-port',
        '10000',
        '--admin-address',
        '::1',
        '--admin-port',
        '9911',
        '--ready-port',
        '9912',
        '--memory-limit-mb',
        '4096',
        '--message-timeout-seconds',
        '2.5',
        '--buffer-limit-mb',
        '48',
        '--stream-idle-timeout-seconds',
        '900',
        '--drain-timeout-seconds',
        '30',
        '--connect-timeout-seconds',
        '3',
        '--max-concurrent-requests',
        '10000',
        '--upstream-ca-file',
        '/etc/gw/ca.pem',
      ],
    ],
    ['tracing-dns-collector.yaml', ['--tracing-collector', 'otel-collector.observability.svc:4317', '--tracing-sampling-percent', '10']],
    ['tracing-tls-ip-collector.yaml', ['--tracing-collector', '10.0.0.9:4317', '--tracing-collector-tls', 'true', '--tracing-service-name', 'edge']],
    // The observing ext_proc filter: observability_mode, forward_rules, grpc_service.initial_metadata.
    ['observe-response-body.yaml', ['--observe-response-body', 'true', '--provider', 'https://api.anthropic.com']],
  ])('%s', async (name, argv) => {
    const { path } = await render(name, argv);
    const result = await runGoTool('envoy-validate', [path]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${name}: ok`);
  });

  it('a values file renders the same as the equivalent flags', async () => {
    const values = join(dir, 'values.yaml');
    writeFileSync(values, stringify({ pathPrefix: '/api', processorAddress: '127.0.0.1:9002', providers: ['https://api.anthropic.com', 'http://ollama.local:11434'], bufferLimitMb: 48 }));
    const fromValues = await render('from-values.yaml', ['--values', values]);
    const fromFlags = await render('from-flags.yaml', [
      '--prefix',
      '/api',
      '--processor-address',
      '127.0.0.1:9002',
      '--provider',
      'https://api.anthropic.com',
      '--provider',
      'http://ollama.local:11434',
      '--buffer-limit-mb',
      '48',
    ]);
    expect(fromValues.text).toBe(fromFlags.text);
    const result = await runGoTool('envoy-validate', [fromValues.path]);
    expect(result.code).toBe(0);
  });
});

describe('the validator refuses a broken render', () => {
  /** Renders the default config, applies an edit to the parsed document, writes it back. */
  async function broken(name: string, edit: (doc: J) => void): Promise<string> {
    const { text } = await render(`${name}.source.yaml`, ['--provider', 'https://api.anthropic.com', '--provider', 'http://ollama.local:11434']);
    const doc = parse(text) as J;
    edit(doc);
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, stringify(doc));
    return path;
  }
  const extProc = (doc: J): J => doc.static_resources.listeners[0].filter_chains[0].filters[0].typed_config.http_filters[0].typed_config;

  it('an unknown field inside the ext_proc typed config', async () => {
    const path = await broken('unknown-field', (doc) => {
      extProc(doc).message_timout = '5s';
    });
    const result = await runGoTool('envoy-validate', [path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown field "message_timout"');
  });

  it("a value outside Envoy's rules, found only by unpacking the ext_proc Any", async () => {
    const path = await broken('message-timeout-too-long', (doc) => {
      extProc(doc).message_timeout = '7200s';
    });
    const result = await runGoTool('envoy-validate', [path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ExternalProcessor.MessageTimeout: value must be inside range');
  });

  it('a cluster without a connect timeout above zero', async () => {
    const path = await broken('zero-connect-timeout', (doc) => {
      doc.static_resources.clusters[1].connect_timeout = '0s';
    });
    const result = await runGoTool('envoy-validate', [path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ConnectTimeout: value must be greater than 0s');
  });
});

describe('the validator checks the production-path fields too', () => {
  const hcm = (doc: J): J => doc.static_resources.listeners[0].filter_chains[0].filters[0].typed_config;
  async function edited(name: string, edit: (doc: J) => void): Promise<string> {
    const { text } = await render(`${name}.source.yaml`, []);
    const doc = parse(text) as J;
    edit(doc);
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, stringify(doc));
    return path;
  }

  it.each([
    ['an overload trigger above 1', (doc: J) => (doc.overload_manager.actions[0].triggers[0].threshold.value = 1.5), 'ThresholdTrigger.Value: value must be inside range [0, 1]'],
    ['a scheme rewrite to something other than http/https', (doc: J) => (hcm(doc).scheme_header_transformation = { scheme_to_overwrite: 'ftp' }), 'SchemeToOverwrite: value must be in list'],
    ['a DNS cache of the dynamic forward proxy that may hold no host', (doc: J) => (hcm(doc).http_filters[1].typed_config.dns_cache_config.max_hosts = 0), 'MaxHosts: value must be greater than 0'],
    ['an early header mutation with no action', (doc: J) => (hcm(doc).early_header_mutation_extensions[0].typed_config.mutations[0] = {}), 'Action: value is required'],
  ])('%s', async (name, edit, message) => {
    const path = await edited(name.replace(/\W+/g, '-'), edit);
    const result = await runGoTool('envoy-validate', [path]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(message);
  });
});

describe('the validator checks the caller bounds and local_reply_config too', () => {
  const hcm = (doc: J): J => doc.static_resources.listeners[0].filter_chains[0].filters[0].typed_config;
  const mapper = (doc: J, i: number): J => hcm(doc).local_reply_config.mappers[i];
  async function edited(name: string, edit: (doc: J) => void): Promise<string> {
    const { text } = await render(`${name}.source.yaml`, []);
    const doc = parse(text) as J;
    edit(doc);
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, stringify(doc));
    return path;
  }

  it.each([
    ['a negative header timeout', (doc: J) => (hcm(doc).request_headers_timeout = '-1s'), 'RequestHeadersTimeout: value must be greater than or equal to 0s'],
    ["a header size limit above Envoy's maximum", (doc: J) => (hcm(doc).max_request_headers_kb = 9000), 'MaxRequestHeadersKb: value must be inside range'],
    ['a header count limit of zero', (doc: J) => (hcm(doc).common_http_protocol_options.max_headers_count = 0), 'MaxHeadersCount: value must be greater than or equal to 1'],
    ['a response flag Envoy does not have', (doc: J) => (mapper(doc, 1).filter.response_flag_filter.flags = ['UF', 'XX']), 'value must be in list'],
    ['a mapper rewriting to a status outside 200-599', (doc: J) => (mapper(doc, 1).status_code = 99), 'StatusCode: value must be inside range'],
    ['a status comparison Envoy does not have', (doc: J) => (mapper(doc, 3).filter.status_code_filter.comparison.op = 7), 'Op: value must be one of the defined enum values'],
    ['a mapper without a filter', (doc: J) => delete mapper(doc, 0).filter, 'Filter: value is required'],
    ['a header to add without a key', (doc: J) => (mapper(doc, 2).headers_to_add[0].header.key = ''), 'Key: value length must be at least 1'],
  ])('%s', async (name, edit, message) => {
    const path = await edited(name.replace(/\W+/g, '-'), edit);
    const result = await runGoTool('envoy-validate', [path]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(message);
  });
});

describe('golden default render', () => {
  it('matches test/fixtures/envoy/generated-default.yaml', async () => {
    const { text } = await render('golden-candidate.yaml', []);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    let golden: string;
    try {
      golden = readFileSync(GOLDEN, 'utf8');
    } catch {
      throw new Error(`${GOLDEN} is missing; generate it with UPDATE_GOLDEN=1`);
    }
    expect(golden, 'regenerate with UPDATE_GOLDEN=1 (never edit by hand)').toBe(text);
    const result = await runGoTool('envoy-validate', [GOLDEN]);
    expect(result.code).toBe(0);
  });
});
