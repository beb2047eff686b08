import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { commandHelp, commandUsage, groupHelp, mainHelp } from '../../../src/cli/help.js';
import { COMMANDS, SERVE_COMMAND } from '../../../src/config/commands.js';
import { GW_BIN } from '../../support/gateway-process.js';

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built `gw` as a user runs it; nothing listens, because every case here ends at the command line. */
function gw(args: readonly string[]): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GW_BIN, ...args], {
      // No configuration from the environment may make a bad command line start a server.
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('gw refuses a command line it does not understand', () => {
  it.each([
    [['serve', '-f', 'examples/gateway.yaml', '--bogus-flag', '1'], 'gw serve: unknown flag --bogus-flag'],
    // The mistyped --redis of the issue: never a replica on private in-memory state.
    [['serve', '-f', 'examples/gateway.yaml', '--rediss', 'redis://127.0.0.1:6379'], 'gw serve: unknown flag --rediss'],
    [['serve', '-f'], 'gw serve: --file needs a value'],
    [['serve', '-f', 'examples/gateway.yaml', 'stray'], 'gw serve: unexpected argument "stray"'],
    [['extproc', '--socket'], 'gw extproc: --socket needs a value'],
    [['operator', '--redis', 'redis://r', '--leader'], 'gw operator: unknown flag --leader'],
    [['export-usage', '--postgress', 'postgres://x/y'], 'gw export-usage: unknown flag --postgress'],
    [['envoy-config', '--provder', 'https://x'], 'gw envoy-config: unknown flag --provder'],
    [['token', 'new', 'extra'], 'gw token new: unexpected argument "extra"'],
    [['token', 'create'], 'gw token create: NAME is required'],
    [['token', 'revoke', 'a', '--display-name', 'x'], 'gw token revoke: unknown flag --display-name'],
    [['redact', '--json'], 'gw redact: unknown flag --json'],
    [['logs', '--json=yes'], 'gw logs: --json takes no value'],
    [['usage', '--by'], 'gw usage: --by needs a value'],
  ])('gw %j exits 2 with one line naming the problem, then the usage', async (args, line) => {
    const result = await gw(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, ...rest] = result.stderr.split('\n');
    expect(first).toBe(line);
    const command = COMMANDS.find((c) => line.startsWith(`gw ${c.name}:`));
    expect(rest.join('\n')).toBe(commandUsage(command ?? SERVE_COMMAND));
  });

  it('exits 2 with the list of commands for an unknown command or a bare gw', async () => {
    const unknown = await gw(['serv']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`gw: unknown command "serv"\n\n${mainHelp()}`);
    const bare = await gw([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(mainHelp());
    const token = await gw(['token', 'old']);
    expect(token.code).toBe(2);
    expect(token.stderr.split('\n')[0]).toBe('gw token: unknown subcommand "old"');
  });
});

describe('gw <command> --help', () => {
  it.each(COMMANDS.map((c) => [c.name]))('gw %s --help prints its help and exits 0', async (name) => {
    const command = COMMANDS.find((c) => c.name === name);
    const result = await gw([...name.split(' '), '--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(commandHelp(command ?? SERVE_COMMAND));
  });

  // Every first word that only names a group of commands (gw token) answers --help like a command does.
  const groups = [...new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0] as string))];
  it.each(groups.flatMap((g) => ['--help', '-h', 'help'].map((flag) => [g, flag])))("gw %s %s lists the group's commands and exits 0", async (group, flag) => {
    const result = await gw([group, flag]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(groupHelp(group));
    for (const command of COMMANDS.filter((c) => c.name.startsWith(`${group} `))) expect(result.stdout).toContain(`gw ${command.name}`);
  });

  it('gw --help and gw help list every command', async () => {
    for (const args of [['--help'], ['help'], ['-h']]) {
      const result = await gw(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(mainHelp());
    }
  });
});
