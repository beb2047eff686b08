import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandDef, OptionDef } from './commands.js';

/**
 * The command line itself is wrong (an unknown flag, a missing value, a stray
 * argument): `gw` prints this one line and the command's usage, and exits 2.
 */
export class UsageError extends Error {
  constructor(
    readonly command: CommandDef,
    message: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A command line that parsed; each value falls back to the option's environment variable, then its default. */
export interface CommandLine {
  readonly command: CommandDef;
  readonly positionals: readonly string[];
  /** The flag's value, else its environment variable's, else its default; undefined when none. */
  value(name: string): string | undefined;
  /** Every value of a repeatable flag, in order. */
  values(name: string): readonly string[];
  /** The values of these flags as given, in command-line order (for flags that add to one list). */
  inOrder(names: readonly string[]): readonly { readonly name: string; readonly value: string }[];
  /** A boolean flag: given or not. */
  flag(name: string): boolean;
  /** Whether the command has this option at all (shared readers serve commands with fewer options). */
  declares(name: string): boolean;
}

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

function parserOptions(command: CommandDef): ParseOptions {
  const options: ParseOptions = {};
  for (const o of command.options) {
    options[o.name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  return options;
}

/** The offending flag of a parseArgs error, as the user typed it (`--bogus-flag`, `-x`). */
function quotedFlag(message: string): string {
  // Node quotes it first: Unknown option '--x'; Option '-f, --file <value>' argument missing.
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const long = /--[A-Za-z0-9][\w-]*/.exec(quoted)?.[0];
  return long ?? (quoted.split(/[ ,]/)[0] || quoted);
}

function usageLine(command: CommandDef, error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag ${quotedFlag(message)}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const arg = /'([^']*)'/.exec(message)?.[1] ?? '';
      return `unexpected argument "${arg}"`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = quotedFlag(message);
      if (/does not take an argument/.test(message)) return `${flag} takes no value`;
      if (/ambiguous/.test(message)) return `${flag} needs a value (for one that starts with "-", write ${flag}=VALUE)`;
      return `${flag} needs a value`;
    }
    default:
      return `${command.name}: ${message}`;
  }
}

/**
 * Parses one command's arguments strictly (node:util parseArgs, strict):
 * an unknown flag, a flag without its value, a value given to a boolean
 * flag, and a positional the command does not take are UsageErrors. Values
 * are not checked here: the command's configuration reader does that, so
 * every problem with them is reported together.
 */
export function parseCommandLine(command: CommandDef, argv: readonly string[], env: NodeJS.ProcessEnv): CommandLine {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: parserOptions(command), strict: true, allowPositionals: command.positionals.length > 0, tokens: true });
  } catch (error) {
    throw new UsageError(command, usageLine(command, error));
  }
  const positionals = parsed.positionals;
  const wanted = command.positionals;
  if (positionals.length < wanted.length) throw new UsageError(command, `${wanted[positionals.length]?.name ?? 'an argument'} is required`);
  if (positionals.length > wanted.length) throw new UsageError(command, `unexpected argument "${positionals[wanted.length]}"`);

  const byName = new Map<string, OptionDef>(command.options.map((o) => [o.name, o]));
  const option = (name: string): OptionDef => {
    const o = byName.get(name);
    // A reader asking for an option its command lacks is a programming error, not a user's.
    if (!o) throw new Error(`gw ${command.name} has no option --${name}`);
    return o;
  };
  const raw = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  return Object.freeze({
    command,
    positionals: Object.freeze([...positionals]),
    value(name: string): string | undefined {
      const o = option(name);
      const given = raw[name];
      if (Array.isArray(given)) return given.length > 0 ? String(given[given.length - 1]) : undefined;
      if (typeof given === 'string') return given;
      return (o.env !== undefined ? env[o.env] : undefined) ?? o.default;
    },
    values(name: string): readonly string[] {
      option(name);
      const given = raw[name];
      if (given === undefined) return [];
      return (Array.isArray(given) ? given : [given]).map(String);
    },
    inOrder(names: readonly string[]) {
      for (const name of names) option(name);
      const given: { name: string; value: string }[] = [];
      for (const t of parsed.tokens ?? []) {
        if (t.kind === 'option' && names.includes(t.name) && t.value !== undefined) given.push({ name: t.name, value: t.value });
      }
      return given;
    },
    flag(name: string): boolean {
      option(name);
      return raw[name] === true;
    },
    declares(name: string): boolean {
      return byName.has(name);
    },
  });
}

/** `--help` or `-h` before any `--`: the command's help wins over anything else on the line. */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}
