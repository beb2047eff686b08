import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runEnvoyConfig } from '../../../src/cli/envoy-config.js';
import { commandHelp } from '../../../src/cli/help.js';
import { ENVOY_CONFIG_COMMAND } from '../../../src/config/commands.js';
import { UsageError } from '../../../src/config/command-line.js';
import { FLAG_OF, VALUE_KEYS } from '../../../src/config/envoy-settings.js';
import type { CliIo } from '../../../src/cli/io.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- walking a generated document */
type J = any;

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

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = sink();
  const err = sink();
  const io: CliIo = { stdin: new PassThrough(), stdout: out.stream, stderr: err.stream, env: {} };
  const code = await runEnvoyConfig(argv, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

const tmp = (): string => mkdtempSync(join(tmpdir(), 'gw-envoy-cli-'));

/** The provider hosts Envoy resolves at start (host:port). */
function preresolved(yamlText: string): string[] {
  const doc = parse(yamlText) as J;
  const filters: J[] = doc.static_resources.listeners[0].filter_chains[0].filters[0].typed_config.http_filters;
  const cache = filters.find((f) => f.name === 'envoy.filters.http.dynamic_forward_proxy').typed_config.dns_cache_config;
  return (cache.preresolve_hostnames ?? []).map((h: J) => `${h.address}:${h.port_value}`);
}

function extProcEndpoint(yamlText: string): J {
  const doc = parse(yamlText) as J;
  const cluster = doc.static_resources.clusters.find((c: J) => c.name === 'gw_extproc');
  return cluster.load_assignment.endpoints[0].lb_endpoints[0].endpoint.address;
}

describe('gw envoy-config', () => {
  it('writes the default bootstrap to stdout', async () => {
    const result = await run([]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(preresolved(result.stdout)).toEqual(['api.anthropic.com:443']);
    expect(extProcEndpoint(result.stdout)).toEqual({ pipe: { path: '/var/run/gw/extproc.sock' } });
  });

  it('collects every --provider and --providers entry, in order', async () => {
    const result = await run(['--provider', 'https://api.anthropic.com', '--providers=https://openrouter.ai/api, http://ollama.local:11434', '--provider=https://api.example.com']);
    expect(result.code).toBe(0);
    expect(preresolved(result.stdout)).toEqual(['api.anthropic.com:443', 'openrouter.ai:443', 'ollama.local:11434', 'api.example.com:443']);
  });

  it("reads a values file; flags win, and a processor flag replaces the file's processor of either kind", async () => {
    const dir = tmp();
    const values = join(dir, 'values.yaml');
    writeFileSync(values, ['listenPort: 10000', 'processorSocket: /run/gw/p.sock', 'providers: [https://openrouter.ai/api]', 'bufferLimitMb: 48', 'messageTimeoutSeconds: 12'].join('\n'));
    const fromFile = await run(['--values', values]);
    expect(fromFile.code).toBe(0);
    const doc = parse(fromFile.stdout) as J;
    expect(doc.static_resources.listeners[0].address.socket_address.port_value).toBe(10000);
    expect(doc.static_resources.listeners[0].per_connection_buffer_limit_bytes).toBe(48 * 1024 * 1024);
    expect(extProcEndpoint(fromFile.stdout)).toEqual({ pipe: { path: '/run/gw/p.sock' } });
    expect(preresolved(fromFile.stdout)).toEqual(['openrouter.ai:443']);

    const overridden = await run(['--values', values, '--listen-port', '10001', '--processor-address', 'gw-extproc.gw.svc:9002', '--provider', 'https://api.anthropic.com']);
    expect(overridden.code).toBe(0);
    const doc2 = parse(overridden.stdout) as J;
    expect(doc2.static_resources.listeners[0].address.socket_address.port_value).toBe(10001);
    expect(extProcEndpoint(overridden.stdout)).toEqual({ socket_address: { address: 'gw-extproc.gw.svc', port_value: 9002 } });
    expect(preresolved(overridden.stdout)).toEqual(['api.anthropic.com:443']);
  });

  it('reads JSON values files too', async () => {
    const dir = tmp();
    const values = join(dir, 'values.json');
    writeFileSync(values, JSON.stringify({ processorAddress: '127.0.0.1:9002', providers: ['http://ollama.local:11434'] }));
    const result = await run(['--values', values]);
    expect(result.code).toBe(0);
    expect(extProcEndpoint(result.stdout)).toEqual({ socket_address: { address: '127.0.0.1', port_value: 9002 } });
  });

  it('writes to --out instead of stdout', async () => {
    const out = join(tmp(), 'envoy.yaml');
    const result = await run(['--out', out, '--prefix', '/api']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`wrote ${out}`);
    expect(readFileSync(out, 'utf8')).toContain('path prefix: /api');
  });

  it('refuses a misspelt flag, a stray argument and a flag without its value before reading anything', async () => {
    await expect(run(['--provder', 'https://x.example'])).rejects.toThrow(new UsageError(ENVOY_CONFIG_COMMAND, 'unknown flag --provder'));
    await expect(run(['stray'])).rejects.toThrow('unexpected argument "stray"');
    await expect(run(['--buffer-limit-mb', '8', '--message-timeout-seconds'])).rejects.toThrow('--message-timeout-seconds needs a value');
  });

  it('reports values-file and settings problems together and exits 2', async () => {
    const dir = tmp();
    const values = join(dir, 'values.yaml');
    writeFileSync(values, 'listenPort: 99999\nlistenAddres: 0.0.0.0\n');
    const result = await run(['--values', values, '--buffer-limit-mb', '8']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr;
    expect(lines).toContain('configuration has 3 problem(s)');
    expect(lines).toContain('unknown setting "listenAddres"');
    expect(lines).toContain('listenPort (--listen-port) must be a port number (1-65535), got 99999');
    expect(lines).toMatch(/bufferLimitMb \(--buffer-limit-mb\) \(8 MiB\) must be larger/);
  });

  it('reports an unreadable or malformed values file', async () => {
    const dir = tmp();
    const missing = await run(['--values', join(dir, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.yaml: ENOENT');
    const list = join(dir, 'list.yaml');
    writeFileSync(list, '- a\n- b\n');
    const notMap = await run(['--values', list]);
    expect(notMap.code).toBe(2);
    expect(notMap.stderr).toContain('must be a mapping of settings, got a list');
  });

  it('has a flag for every settings key, and its help names the values-file keys', () => {
    const flags = new Set(ENVOY_CONFIG_COMMAND.options.map((o) => `--${o.name}`));
    for (const key of VALUE_KEYS) expect(flags, key).toContain(FLAG_OF[key]);
    const help = commandHelp(ENVOY_CONFIG_COMMAND);
    expect(help).toContain('--processor-socket PATH');
    expect(help).toContain('maxConcurrentRequests');
  });
});
