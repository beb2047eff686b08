#!/usr/bin/env node
import { COMMANDS, type CommandDef } from '../config/commands.js';
import { UsageError, wantsHelp } from '../config/command-line.js';
import { runAdminQuery } from './admin-client.js';
import { runEnvoyConfig } from './envoy-config.js';
import { commandHelp, commandUsage, groupCommands, groupHelp, mainHelp } from './help.js';
import type { CliIo } from './io.js';
import { runRedact } from './redact.js';
import { runExtProcCommand, runServeCommand } from './serve.js';
import { runTokenHash, runTokenNew } from './token.js';

/** The command named by the first words of argv (`serve`, `token create`) and the arguments after it. */
function resolve(argv: readonly string[]): { command: CommandDef; rest: readonly string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  return null;
}

async function run(command: CommandDef, argv: readonly string[], io: CliIo): Promise<number> {
  switch (command.name) {
    case 'serve':
      return runServeCommand(argv, io);
    case 'extproc':
      return runExtProcCommand(argv, io);
    case 'envoy-config':
      return runEnvoyConfig(argv, io);
    case 'redact':
      return runRedact(argv, io);
    case 'token new':
      return runTokenNew(argv, io);
    case 'token hash':
      return runTokenHash(argv, io);
    case 'token create':
    case 'token revoke': {
      // Loaded on demand: the Kubernetes client is heavy and only these commands need it.
      const { runTokenCluster } = await import('./token-cluster.js');
      return runTokenCluster(command, argv, io);
    }
    case 'operator': {
      const { runOperatorCommand } = await import('./operator.js');
      return runOperatorCommand(argv, io);
    }
    case 'export-usage': {
      const { runExportUsageCommand } = await import('./export-usage.js');
      return runExportUsageCommand(argv, io);
    }
    case 'logs':
      return runAdminQuery('logs', argv, io);
    case 'usage':
      return runAdminQuery('usage', argv, io);
  }
  throw new Error(`gw ${command.name} is defined but has no runner`);
}

async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    (first === undefined ? io.stderr : io.stdout).write(mainHelp());
    return first === undefined ? 2 : 0;
  }
  const found = resolve(argv);
  if (!found) {
    const group = groupCommands(first).length > 0;
    // `gw token --help` answers like every other command's --help: the group's commands, exit 0.
    if (group && (argv[1] === 'help' || wantsHelp(argv.slice(1, 2)))) {
      io.stdout.write(groupHelp(first));
      return 0;
    }
    const known = group ? `gw ${first}: ${argv[1] === undefined ? 'needs a subcommand' : `unknown subcommand "${argv[1]}"`}` : `gw: unknown command "${first}"`;
    io.stderr.write(`${known}\n\n${group ? groupHelp(first) : mainHelp()}`);
    return 2;
  }
  const { command, rest } = found;
  if (wantsHelp(rest)) {
    io.stdout.write(commandHelp(command));
    return 0;
  }
  try {
    return await run(command, rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`gw ${error.command.name}: ${error.message}\n${commandUsage(error.command)}`);
    return 2;
  }
}

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`gw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
