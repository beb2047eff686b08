// `gw redact`: shows what secret scanning does to a request body before it
// leaves the gateway. Reads stdin, writes the redacted bytes (or a JSON
// report) to stdout. The report names rules and byte offsets, never secrets.
import { redactJsonBody, redactText, type RedactionResult } from '../redaction/index.js';

export interface RedactIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit codes: 0 done, 2 bad usage, 3 time budget ran out (output may still hold secrets). */
export const EXIT_BUDGET_EXHAUSTED = 3;
const EXIT_USAGE = 2;

const USAGE = `Usage: gw redact [--text] [--json-report] [--budget-ms <ms>]

Reads an Anthropic Messages request body on stdin and writes it to stdout with
every credential replaced by [REDACTED: <rule_id>], exactly as the gateway
forwards it.

  --text            treat the input as plain text instead of a request body
  --json-report     write a JSON report instead: each finding (rule id, byte
                    start and end in the input) and the redacted output
  --budget-ms <ms>  stop the scan after this long (default: no limit; the
                    gateway always scans every byte)
  -h, --help        show this help

Exit status: 0 done; 2 bad usage; 3 the time budget ran out, so the output may
still contain credentials.
`;

interface Options {
  text: boolean;
  report: boolean;
  budgetMs: number | undefined;
}

function parse(argv: readonly string[]): Options | 'help' | string {
  const options: Options = { text: false, report: false, budgetMs: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--text') options.text = true;
    else if (arg === '--json-report') options.report = true;
    else if (arg === '--budget-ms' || arg.startsWith('--budget-ms=')) {
      const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      const ms = Number(raw);
      if (raw === undefined || raw === '' || !Number.isFinite(ms) || ms <= 0) {
        return `--budget-ms needs a positive number of milliseconds`;
      }
      options.budgetMs = ms;
    } else return `unknown argument: ${arg}`;
  }
  return options;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function write(stream: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(data, (err) => (err ? reject(err) : resolve()));
  });
}

function report(input: Buffer, result: RedactionResult, text: boolean): string {
  return `${JSON.stringify(
    {
      input: text ? 'text' : 'request-body',
      bytes: input.length,
      findings: result.findings.map((f) => ({ ruleId: f.ruleId, start: f.start, end: f.end })),
      countsByRule: result.countsByRule,
      budgetExhausted: result.budgetExhausted,
      output: result.body.toString('utf8'),
    },
    null,
    2,
  )}\n`;
}

export async function runRedact(argv: string[], io: RedactIo): Promise<number> {
  const options = parse(argv);
  if (options === 'help') {
    await write(io.stdout, USAGE);
    return 0;
  }
  if (typeof options === 'string') {
    await write(io.stderr, `gw redact: ${options}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const input = await readAll(io.stdin);
  const scanOptions = options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs };
  const result = options.text ? redactText(input, scanOptions) : redactJsonBody(input, scanOptions);
  await write(io.stdout, options.report ? report(input, result, options.text) : result.body);
  if (result.budgetExhausted) {
    await write(
      io.stderr,
      'gw redact: the time budget ran out before the scan finished; the output may still contain credentials (raise --budget-ms)\n',
    );
    return EXIT_BUDGET_EXHAUSTED;
  }
  return 0;
}
