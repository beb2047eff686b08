import { readFile, writeFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../config/load-resources.js';
import { renderEnvoyBootstrap } from '../envoy/bootstrap.js';
import { type EnvoySettings, type EnvoyValueKey, type EnvoyValues, FLAG_OF, resolveEnvoySettings, VALUE_KEYS } from '../envoy/settings.js';
import type { CliIo } from './io.js';

export const ENVOY_CONFIG_USAGE = `gw envoy-config: write the Envoy bootstrap that puts gw extproc in front of the providers

  gw envoy-config [--values FILE] [--out FILE]
                  [--listen-address A] [--listen-port N] [--admin-address A] [--admin-port N] [--ready-port N]
                  [--prefix /api] [--processor-socket PATH | --processor-address host:port]
                  [--provider URL]... [--providers URL,URL]
                  [--message-timeout-seconds N] [--buffer-limit-mb N] [--max-body-mb N]
                  [--stream-idle-timeout-seconds N] [--drain-timeout-seconds N]
                  [--connect-timeout-seconds N] [--upstream-ca-file PATH] [--max-concurrent-requests N]
                  [--memory-limit-mb N]
                  [--tracing-collector host:port [--tracing-collector-tls true]
                   [--tracing-service-name NAME] [--tracing-sampling-percent N]]

  --values FILE  YAML or JSON with the same settings under camelCase keys
                 (${VALUE_KEYS.join(', ')}); flags win over it.
  --out FILE     write there instead of stdout.
`;

/** Flag name (without dashes) → values key; --provider may repeat. */
const KEY_OF_FLAG: ReadonlyMap<string, EnvoyValueKey> = new Map(VALUE_KEYS.map((key) => [FLAG_OF[key].slice(2), key] as const));

interface ParsedFlags {
  readonly values: EnvoyValues;
  readonly valuesFile: string | null;
  readonly out: string | null;
  readonly help: boolean;
  readonly problems: string[];
}

/**
 * Strict argv reader for this command: an unknown or misspelt flag is an
 * error (a silently ignored `--provder` would drop a provider from the config),
 * and `--provider` collects every occurrence.
 */
function parseFlags(argv: readonly string[]): ParsedFlags {
  const values: EnvoyValues = {};
  const providers: string[] = [];
  const problems: string[] = [];
  let valuesFile: string | null = null;
  let out: string | null = null;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      problems.push(`unexpected argument "${arg}"`);
      continue;
    }
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq !== -1) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    const key = KEY_OF_FLAG.get(name);
    if (key === undefined && name !== 'providers' && name !== 'values' && name !== 'out') {
      problems.push(`unknown flag --${name}`);
      // Every flag of this command takes a value; skip the misspelt flag's too.
      if (value === undefined && argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith('--')) i++;
      continue;
    }
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        problems.push(`--${name} needs a value`);
        continue;
      }
      value = next;
      i++;
    }
    if (name === 'values') valuesFile = value;
    else if (name === 'out') out = value;
    else if (name === 'providers') providers.push(...value.split(',').map((p) => p.trim()).filter((p) => p !== ''));
    else if (key === 'providers') providers.push(value);
    else if (key !== undefined) values[key] = value;
  }
  if (providers.length > 0) values.providers = providers;
  return { values, valuesFile, out, help, problems };
}

async function readValuesFile(path: string, problems: string[]): Promise<EnvoyValues> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    problems.push(`--values ${path}: ${(error as Error).message}`);
    return {};
  }
  let data: unknown;
  try {
    // JSON is YAML, so one parser reads both.
    data = parseYaml(text);
  } catch (error) {
    problems.push(`--values ${path}: not valid YAML or JSON: ${(error as Error).message}`);
    return {};
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    problems.push(`--values ${path}: must be a mapping of settings, got ${Array.isArray(data) ? 'a list' : typeof data}`);
    return {};
  }
  return data as EnvoyValues;
}

/** `gw envoy-config`: settings (values file, then flags) → Envoy bootstrap YAML on stdout or --out. */
export async function runEnvoyConfig(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseFlags(argv);
  if (flags.help) {
    io.stdout.write(ENVOY_CONFIG_USAGE);
    return 0;
  }
  const problems = [...flags.problems];
  const fromFile = flags.valuesFile === null ? {} : await readValuesFile(flags.valuesFile, problems);
  const merged: EnvoyValues = { ...fromFile };
  // A processor chosen on the command line replaces the file's choice of either kind.
  if (flags.values.processorSocket !== undefined) delete merged.processorAddress;
  if (flags.values.processorAddress !== undefined) delete merged.processorSocket;
  Object.assign(merged, flags.values);

  // Flag, file and settings problems are reported together.
  let settings: EnvoySettings | null = null;
  try {
    settings = resolveEnvoySettings(merged);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (settings === null || problems.length > 0) {
    io.stderr.write(`gw envoy-config: ${new ConfigError(problems).message}\n`);
    return 2;
  }
  const yaml = renderEnvoyBootstrap(settings);
  if (flags.out === null) {
    io.stdout.write(yaml);
    return 0;
  }
  try {
    await writeFile(flags.out, yaml);
  } catch (error) {
    io.stderr.write(`gw envoy-config: cannot write ${flags.out}: ${(error as Error).message}\n`);
    return 1;
  }
  io.stderr.write(`gw envoy-config: wrote ${flags.out}\n`);
  return 0;
}
