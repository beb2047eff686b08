/** A tiny argv reader: `--name value`, `--name=value`, `-f value`, boolean `--flag`. */
export interface ParsedArgs {
  readonly values: Map<string, string>;
  readonly flags: Set<string>;
  readonly positional: string[];
}

export function parseArgs(argv: readonly string[], booleanFlags: readonly string[] = [], aliases: Readonly<Record<string, string>> = {}): ParsedArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    let name = arg.replace(/^--?/, '');
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq !== -1) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    name = aliases[name] ?? name;
    if (booleanFlags.includes(name)) {
      flags.add(name);
      continue;
    }
    if (value === undefined) {
      value = argv[i + 1];
      i++;
    }
    values.set(name, value ?? '');
  }
  return { values, flags, positional };
}
