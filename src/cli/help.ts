// `gw --help`, `gw <command> --help` and the usage after a usage error, all
// rendered from the command definitions (src/config/commands.ts).
import { COMMANDS, type CommandDef, type OptionDef } from '../config/commands.js';

export function synopsis(command: CommandDef): string {
  const parts = [`gw ${command.name}`, ...command.positionals.map((p) => p.name)];
  if (command.options.length > 0) parts.push('[options]');
  return parts.join(' ');
}

export function flagText(option: OptionDef): string {
  const long = `--${option.name}${option.placeholder ? ` ${option.placeholder}` : ''}`;
  return option.short ? `-${option.short}, ${long}` : long;
}

/** The environment variable and default of an option, as help and docs show them. */
export function optionSource(option: OptionDef): string[] {
  const parts: string[] = [];
  if (option.env) parts.push(`env ${option.env}`);
  const shown = option.default ?? option.defaultNote;
  if (shown !== undefined && shown !== '') parts.push(`default ${shown}`);
  if (option.multiple) parts.push('repeatable');
  return parts;
}

function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`.trimEnd());
}

/** The full help of one command (stdout of `gw <command> --help`). */
export function commandHelp(command: CommandDef): string {
  const lines = [`gw ${command.name}: ${command.summary}`, '', `usage: ${synopsis(command)}`];
  if (command.positionals.length > 0) {
    lines.push('', ...columns(command.positionals.map((p) => [p.name, p.description] as const)));
  }
  const rows = command.options.map((o) => {
    const source = optionSource(o);
    return [flagText(o), source.length > 0 ? `${o.description} (${source.join('; ')})` : o.description] as const;
  });
  rows.push(['-h, --help', 'show this help'] as const);
  lines.push('', 'options:', ...columns(rows));
  for (const note of command.notes) lines.push('', note);
  return `${lines.join('\n')}\n`;
}

/** What follows a usage error's one line (stderr, exit 2). */
export function commandUsage(command: CommandDef): string {
  return `usage: ${synopsis(command)}\n(gw ${command.name} --help for details)\n`;
}

/** `gw --help`: every command with its summary. */
export function mainHelp(): string {
  const rows = COMMANDS.map((c) => [synopsis(c), c.summary] as const);
  return ['gw: the model gateway', '', ...columns(rows), '', 'gw <command> --help shows the options of one command.', ''].join('\n');
}

/** The commands named `<group> <word>` (`token` → token new, hash, create, revoke); empty when `group` is none. */
export function groupCommands(group: string): CommandDef[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${group} `));
}

/** `gw <group> --help` (`gw token --help`): the group's commands with their summaries. */
export function groupHelp(group: string): string {
  const rows = groupCommands(group).map((c) => [synopsis(c), c.summary] as const);
  return [`gw ${group}: one of these commands`, '', ...columns(rows), '', `gw ${group} <command> --help shows the options of one command.`, ''].join('\n');
}
