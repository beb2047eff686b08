/**
 * The chart's values restate defaults and limits of settings that are
 * declared elsewhere: the Envoy settings (src/config/envoy-settings.ts), the
 * flags of `gw extproc` and `gw operator` (src/config/commands.ts) and the
 * environment-only settings (src/config/env-settings.ts). docs/configuration.md
 * shows the chart's values, so a value that drifted from its declaration would
 * be documented wrong as well as deployed wrong. Each value is compared with
 * its declaration here; the few that differ on purpose say why. No helm needed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXTPROC_COMMAND, OPERATOR_COMMAND, type CommandDef } from '../../../src/config/commands.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { envSetting } from '../../../src/config/env-settings.js';
import { ENVOY_SETTING_DEFS, type EnvoyValueKey, type EnvoyValues, resolveEnvoySettings } from '../../../src/config/envoy-settings.js';
import { CHART } from './chart-support.js';

type Values = Record<string, unknown>;
const VALUES = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Values;
const SCHEMA = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as Values;

function at(values: Values, path: string): unknown {
  let node: unknown = values;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`values.yaml has no ${path}`);
    node = (node as Values)[key];
  }
  return node;
}

const envoyDefault = (key: EnvoyValueKey): unknown => ENVOY_SETTING_DEFS.find((d) => d.key === key)?.default;

function flagDefault(command: CommandDef, flag: string): string {
  const option = command.options.find((o) => o.name === flag);
  if (option?.default === undefined) throw new Error(`gw ${command.name} --${flag} declares no default`);
  return option.default;
}

/** What a named template of the chart says (`{{- define "name" -}}text{{- end -}}`), or the part `pattern` captures of it. */
function helperText(file: string, name: string, pattern = /^([^{]*){{- end/): string {
  const text = readFileSync(join(CHART, 'templates', file), 'utf8');
  const start = text.indexOf(`define "${name}" -}}`);
  const match = start === -1 ? null : pattern.exec(text.slice(start + `define "${name}" -}}`.length));
  if (!match) throw new Error(`${file}: template ${name} not found, or not in the expected form`);
  return (match[1] as string).trim();
}

/** A Kubernetes memory quantity in Mi or Gi, in MiB. */
function mebibytes(quantity: unknown): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(String(quantity));
  if (!match) throw new Error(`not a Mi or Gi quantity: ${String(quantity)}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

/**
 * gateway.envoy.settings keys that differ from `gw envoy-config`'s own default on purpose.
 * providers: the chart preresolves every provider with a default base URL, a list
 * scripts/gen-providers.mjs writes from src/models/providers.ts (and checks).
 */
const CHART_CHOOSES: readonly EnvoyValueKey[] = ['providers'];

describe("the chart's values are the declared defaults", () => {
  const settings = at(VALUES, 'gateway.envoy.settings') as Values;

  it.each(Object.keys(settings).filter((k) => !CHART_CHOOSES.includes(k as EnvoyValueKey)))('gateway.envoy.settings.%s', (key) => {
    expect(settings[key], `values.yaml gateway.envoy.settings.${key} restates the default of ENVOY_SETTING_DEFS (src/config/envoy-settings.ts)`).toEqual(envoyDefault(key as EnvoyValueKey));
  });

  it('the settings the chart fills in itself, from other values or its templates', () => {
    expect(at(VALUES, 'gateway.pathPrefix')).toBe(envoyDefault('pathPrefix'));
    expect(at(VALUES, 'gateway.maxBodyMb')).toBe(envoyDefault('maxBodyMb'));
    expect(String(at(VALUES, 'gateway.maxBodyMb'))).toBe(flagDefault(EXTPROC_COMMAND, 'max-body-mb'));
    expect(helperText('_helpers.tpl', 'model-gateway.processorSocket')).toBe(envoyDefault('processorSocket'));
    // memoryLimitMb follows the Envoy container's limit: the chart's default limit is the setting's default.
    expect(mebibytes(at(VALUES, 'gateway.envoy.resources.limits.memory'))).toBe(envoyDefault('memoryLimitMb'));
    expect(Number(helperText('_envoy.tpl', 'model-gateway.envoyMemoryMb', /else -}}(\d+){{- end/))).toBe(envoyDefault('memoryLimitMb'));
  });

  it("gateway.processor: gw extproc's flags and environment", () => {
    expect(String(at(VALUES, 'gateway.processor.adminPort'))).toBe(flagDefault(EXTPROC_COMMAND, 'admin-port'));
    expect(String((at(VALUES, 'gateway.processor.shutdownGraceSeconds') as number) * 1000)).toBe(flagDefault(EXTPROC_COMMAND, 'shutdown-grace-ms'));
    expect(at(VALUES, 'gateway.processor.logLevel')).toBe(envSetting('GW_LOG_LEVEL').default);
  });

  it("operator: gw operator's flags", () => {
    expect(String(at(VALUES, 'operator.leaseDurationSeconds'))).toBe(flagDefault(OPERATOR_COMMAND, 'lease-duration-seconds'));
    expect(String(at(VALUES, 'operator.resyncSeconds'))).toBe(flagDefault(OPERATOR_COMMAND, 'resync-seconds'));
    expect(String(at(VALUES, 'operator.workers'))).toBe(flagDefault(OPERATOR_COMMAND, 'workers'));
    expect(String(at(VALUES, 'operator.adminPort'))).toBe(flagDefault(OPERATOR_COMMAND, 'admin-port'));
    expect(at(VALUES, 'operator.logLevel')).toBe(flagDefault(OPERATOR_COMMAND, 'log-level'));
  });
});

/**
 * Companion values that let a probe reach one setting's own bound without
 * tripping a rule between settings (the buffer must exceed the body limit, the
 * heap must hold two buffers).
 */
const PROBE_CONTEXT: Partial<Record<EnvoyValueKey, EnvoyValues>> = {
  memoryLimitMb: { maxBodyMb: 1, bufferLimitMb: 2 },
  bufferLimitMb: { maxBodyMb: 1 },
};

function resolverAccepts(values: EnvoyValues): boolean {
  try {
    resolveEnvoySettings(values);
    return true;
  } catch (error) {
    if (error instanceof ConfigError) return false;
    throw error;
  }
}

describe("the values schema's numeric limits on gateway.envoy.settings are the resolver's", () => {
  type Props = { properties: Record<string, Props & Record<string, unknown>> };
  const properties = (SCHEMA.properties as Record<string, Props>).gateway!.properties.envoy!.properties.settings!.properties;
  const ajv = new Ajv({ strict: false });

  const probes = Object.entries(properties).flatMap(([key, schema]) => {
    const step = schema.type === 'integer' ? 1 : 0.001;
    const out: { key: string; value: number; schema: object }[] = [];
    for (const bound of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
      const b = schema[bound];
      if (typeof b !== 'number') continue;
      const inside = bound === 'minimum' || bound === 'maximum' ? [b] : [];
      const outside = bound === 'minimum' ? b - step : bound === 'maximum' ? b + step : b;
      for (const value of [...inside, outside]) out.push({ key, value, schema });
    }
    return out;
  });

  it('has bounds to probe', () => {
    expect(probes.length).toBeGreaterThan(15);
  });

  it.each(probes.map((p) => [p.key, p.value, p] as const))('%s = %s: the schema and `gw envoy-config` agree', (key, value, probe) => {
    const schemaAccepts = ajv.validate(probe.schema, value);
    const values: EnvoyValues = { ...PROBE_CONTEXT[key as EnvoyValueKey], [key]: value };
    expect(resolverAccepts(values), `values.schema.json ${schemaAccepts ? 'accepts' : 'refuses'} gateway.envoy.settings.${key} = ${value}`).toBe(schemaAccepts);
  });
});
