/**
 * Envoy's command line, as far as a pod spec can pass it: the options and
 * their value types from https://www.envoyproxy.io/docs/envoy/v1.39.6/operations/cli
 * (parsed by TCLAP in source/server/options_impl.cc, which refuses an
 * unknown option or a malformed value and exits). A rendered container's
 * args are read the way Envoy would read them, so a misspelt flag or a
 * non-numeric --concurrency fails here as it would fail the pod.
 */

type Kind = 'uint' | 'string' | 'flag' | { oneOf: readonly string[] };

const OPTIONS: Record<string, Kind> = {
  '--config-path': 'string',
  '--config-yaml': 'string',
  '--mode': { oneOf: ['serve', 'validate', 'init_only'] },
  '--concurrency': 'uint',
  '--log-level': { oneOf: ['trace', 'debug', 'info', 'warning', 'warn', 'error', 'critical', 'off'] },
  '--component-log-level': 'string',
  '--log-format': 'string',
  '--log-path': 'string',
  '--base-id': 'uint',
  '--use-dynamic-base-id': 'flag',
  '--drain-time-s': 'uint',
  '--drain-strategy': { oneOf: ['gradual', 'immediate'] },
  '--parent-shutdown-time-s': 'uint',
  '--file-flush-interval-msec': 'uint',
  '--disable-hot-restart': 'flag',
  '--service-cluster': 'string',
  '--service-node': 'string',
  '--service-zone': 'string',
  '--local-address-ip-version': { oneOf: ['v4', 'v6'] },
  '--ignore-unknown-dynamic-fields': 'flag',
  '--reject-unknown-dynamic-fields': 'flag',
  '--enable-core-dump': 'flag',
};

// TCLAP's short forms (options_impl.cc): -c --config-path, -l --log-level.
const SHORT: Record<string, string> = { '-c': '--config-path', '-l': '--log-level' };

export interface EnvoyCommandLine {
  /** --concurrency; undefined means one worker per hardware thread of the node. */
  concurrency: number | undefined;
  configPath: string | undefined;
  values: Map<string, string | true>;
}

/** Reads Envoy's argv (after the binary); throws as Envoy would refuse to start. */
export function parseEnvoyCommandLine(args: readonly string[]): EnvoyCommandLine {
  const values = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const raw = args[i] as string;
    const [given, inline] = raw.startsWith('--') && raw.includes('=') ? (raw.split(/=(.*)/s) as [string, string]) : [raw, undefined];
    const name = SHORT[given] ?? given;
    const kind = OPTIONS[name];
    if (!kind) throw new Error(`envoy: unknown command line argument ${raw}`);
    if (values.has(name)) throw new Error(`envoy: ${name} given more than once`);
    if (kind === 'flag') {
      values.set(name, true);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`envoy: ${name} needs a value`);
    if (kind === 'uint' && !/^\d+$/.test(value)) throw new Error(`envoy: ${name} needs an unsigned integer, got ${JSON.stringify(value)}`);
    if (typeof kind === 'object' && !kind.oneOf.includes(value)) throw new Error(`envoy: ${name} must be one of ${kind.oneOf.join(', ')}, got ${JSON.stringify(value)}`);
    values.set(name, value);
  }
  const concurrency = values.get('--concurrency');
  const configPath = values.get('--config-path');
  return {
    concurrency: typeof concurrency === 'string' ? Number(concurrency) : undefined,
    configPath: typeof configPath === 'string' ? configPath : undefined,
    values,
  };
}
