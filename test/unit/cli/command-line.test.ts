import { describe, expect, it } from 'vitest';
import { commandHelp, commandUsage, mainHelp } from '../../../src/cli/help.js';
import { COMMANDS, type CommandDef } from '../../../src/config/commands.js';
import { parseCommandLine, UsageError, wantsHelp } from '../../../src/config/command-line.js';

const DEMO: CommandDef = {
  name: 'demo',
  summary: 'a command for the parser tests',
  positionals: [],
  options: [
    { name: 'file', short: 'f', type: 'string', placeholder: 'FILE', env: 'DEMO_FILE', description: 'a file' },
    { name: 'port', type: 'string', placeholder: 'N', env: 'DEMO_PORT', default: '8080', description: 'a port' },
    { name: 'json', type: 'boolean', description: 'JSON out' },
    { name: 'provider', type: 'string', multiple: true, placeholder: 'URL', description: 'repeatable' },
  ],
  notes: [],
};

const WITH_NAME: CommandDef = { ...DEMO, name: 'demo make', positionals: [{ name: 'NAME', description: 'what to make' }] };

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('no UsageError');
}

describe('parseCommandLine', () => {
  it('reads long, short and --name=value forms, booleans and repeated flags', () => {
    const line = parseCommandLine(DEMO, ['-f', 'a.yaml', '--port=9', '--json', '--provider', 'https://a', '--provider', 'https://b'], {});
    expect(line.value('file')).toBe('a.yaml');
    expect(line.value('port')).toBe('9');
    expect(line.flag('json')).toBe(true);
    expect(line.values('provider')).toEqual(['https://a', 'https://b']);
    expect(line.positionals).toEqual([]);
  });

  it('gives the values of flags that add to one list in command-line order', () => {
    const line = parseCommandLine(DEMO, ['--provider', 'a', '--file', 'x', '--provider', 'b'], {});
    expect(line.inOrder(['provider', 'file'])).toEqual([
      { name: 'provider', value: 'a' },
      { name: 'file', value: 'x' },
      { name: 'provider', value: 'b' },
    ]);
  });

  it('falls back to the environment variable, then the default; the flag wins over both', () => {
    expect(parseCommandLine(DEMO, [], {}).value('port')).toBe('8080');
    expect(parseCommandLine(DEMO, [], { DEMO_PORT: '1' }).value('port')).toBe('1');
    expect(parseCommandLine(DEMO, ['--port', '2'], { DEMO_PORT: '1' }).value('port')).toBe('2');
    expect(parseCommandLine(DEMO, [], {}).value('file')).toBeUndefined();
    expect(parseCommandLine(DEMO, [], { DEMO_FILE: 'e.yaml' }).value('file')).toBe('e.yaml');
    expect(parseCommandLine(DEMO, [], {}).flag('json')).toBe(false);
  });

  it('names an unknown flag, long or short, in one line', () => {
    expect(usageError(() => parseCommandLine(DEMO, ['--bogus-flag', '1'], {})).message).toBe('unknown flag --bogus-flag');
    expect(usageError(() => parseCommandLine(DEMO, ['-x'], {})).message).toBe('unknown flag -x');
    expect(usageError(() => parseCommandLine(DEMO, ['--bogus=1'], {})).message).toBe('unknown flag --bogus');
  });

  it('names a flag whose value is missing, also when the next word is another flag', () => {
    expect(usageError(() => parseCommandLine(DEMO, ['--port'], {})).message).toBe('--port needs a value');
    expect(usageError(() => parseCommandLine(DEMO, ['-f'], {})).message).toBe('--file needs a value');
    expect(usageError(() => parseCommandLine(DEMO, ['--file', '--json'], {})).message).toMatch(/^--file needs a value/);
  });

  it('refuses a value given to a boolean flag', () => {
    expect(usageError(() => parseCommandLine(DEMO, ['--json=yes'], {})).message).toBe('--json takes no value');
  });

  it('refuses a stray argument, and asks for a required one by name', () => {
    expect(usageError(() => parseCommandLine(DEMO, ['-f', 'a', 'extra'], {})).message).toBe('unexpected argument "extra"');
    expect(usageError(() => parseCommandLine(WITH_NAME, [], {})).message).toBe('NAME is required');
    expect(usageError(() => parseCommandLine(WITH_NAME, ['a', 'b'], {})).message).toBe('unexpected argument "b"');
    expect(parseCommandLine(WITH_NAME, ['alice', '--json'], {}).positionals).toEqual(['alice']);
  });

  it('carries the command, so the usage printed is the right one', () => {
    expect(usageError(() => parseCommandLine(WITH_NAME, [], {})).command).toBe(WITH_NAME);
    expect(commandUsage(WITH_NAME)).toBe('usage: gw demo make NAME [options]\n(gw demo make --help for details)\n');
  });

  it('treats asking for an option the command lacks as a programming error', () => {
    expect(() => parseCommandLine(DEMO, [], {}).value('nope')).toThrow('gw demo has no option --nope');
    expect(parseCommandLine(DEMO, [], {}).declares('nope')).toBe(false);
  });
});

describe('wantsHelp', () => {
  it('finds --help or -h anywhere before --', () => {
    expect(wantsHelp(['-f', 'x', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--', '--help'])).toBe(false);
    expect(wantsHelp(['--port', '1'])).toBe(false);
  });
});

describe('the command definitions', () => {
  it('give every command a unique name and every option a unique long and short name', () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      const longs = c.options.map((o) => o.name);
      const shorts = c.options.flatMap((o) => (o.short ? [o.short] : []));
      expect(new Set(longs).size, c.name).toBe(longs.length);
      expect(new Set(shorts).size, c.name).toBe(shorts.length);
      // --help and -h are the command line's own.
      expect(longs, c.name).not.toContain('help');
      expect(shorts, c.name).not.toContain('h');
    }
  });

  it('parse with no arguments but the required ones', () => {
    for (const c of COMMANDS) {
      expect(
        () =>
          parseCommandLine(
            c,
            c.positionals.map(() => 'x'),
            {},
          ),
        c.name,
      ).not.toThrow();
    }
  });

  it('render a help that lists every option with its environment variable', () => {
    for (const c of COMMANDS) {
      const help = commandHelp(c);
      expect(help.startsWith(`gw ${c.name}: `), c.name).toBe(true);
      for (const o of c.options) {
        expect(help, `${c.name} --${o.name}`).toContain(`--${o.name}`);
        if (o.env) expect(help, `${c.name} --${o.name}`).toContain(`env ${o.env}`);
      }
    }
    for (const c of COMMANDS) expect(mainHelp()).toContain(`gw ${c.name}`);
  });
});
