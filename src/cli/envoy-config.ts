import { readFile, writeFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../config/config-error.js';
import { renderEnvoyBootstrap } from '../envoy/bootstrap.js';
import { ENVOY_CONFIG_COMMAND } from '../config/commands.js';
import { parseCommandLine } from '../config/command-line.js';
import { type EnvoySettings, type EnvoyValues, FLAG_OF, resolveEnvoySettings, VALUE_KEYS } from '../config/envoy-settings.js';
import type { CliIo } from './io.js';

interface ParsedFlags {
  readonly values: EnvoyValues;
  readonly valuesFile: string | null;
  readonly out: string | null;
}

/** The flags, each mapped to its values key; --provider may repeat and --providers takes a list. */
function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedFlags {
  const args = parseCommandLine(ENVOY_CONFIG_COMMAND, argv, env);
  const values: EnvoyValues = {};
  for (const key of VALUE_KEYS) {
    if (key === 'providers') continue;
    const value = args.value(FLAG_OF[key].slice(2));
    if (value !== undefined) values[key] = value;
  }
  const providers = args
    .inOrder([FLAG_OF.providers.slice(2), 'providers'])
    .flatMap(({ name, value }) => (name === 'providers' ? value.split(',').map((p) => p.trim()) : [value]))
    .filter((p) => p !== '');
  if (providers.length > 0) values.providers = providers;
  return { values, valuesFile: args.value('values') ?? null, out: args.value('out') ?? null };
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
  const flags = parseFlags(argv, io.env);
  const problems: string[] = [];
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
