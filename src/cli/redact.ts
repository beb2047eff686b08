// `gw redact`: shows what secret scanning does to a request body before it
// leaves the gateway. Reads stdin, writes the redacted bytes (or a JSON
// report) to stdout. The report names rules and byte offsets, never secrets.
import { REDACT_COMMAND } from '../config/commands.js';
import { parseCommandLine } from '../config/command-line.js';
import { redactJsonBody, redactText, type RedactionResult } from '../redaction/index.js';
import { commandUsage } from './help.js';

export interface RedactIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit codes: 0 done, 2 bad usage, 3 time budget ran out (output may still hold secrets). */
export const EXIT_BUDGET_EXHAUSTED = 3;
const EXIT_USAGE = 2;

interface Options {
  text: boolean;
  report: boolean;
  budgetMs: number | undefined;
}

function parse(argv: readonly string[]): Options | string {
  const args = parseCommandLine(REDACT_COMMAND, argv, {});
  const raw = args.value('budget-ms');
  let budgetMs: number | undefined;
  if (raw !== undefined) {
    budgetMs = Number(raw);
    if (raw === '' || !Number.isFinite(budgetMs) || budgetMs <= 0) return '--budget-ms needs a positive number of milliseconds';
  }
  return { text: args.flag('text'), report: args.flag('json-report'), budgetMs };
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

export async function runRedact(argv: readonly string[], io: RedactIo): Promise<number> {
  const options = parse(argv);
  if (typeof options === 'string') {
    await write(io.stderr, `gw redact: ${options}\n${commandUsage(REDACT_COMMAND)}`);
    return EXIT_USAGE;
  }
  const input = await readAll(io.stdin);
  const scanOptions = options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs };
  const result = options.text ? redactText(input, scanOptions) : redactJsonBody(input, scanOptions);
  await write(io.stdout, options.report ? report(input, result, options.text) : result.body);
  if (result.budgetExhausted) {
    await write(io.stderr, 'gw redact: the time budget ran out before the scan finished; the output may still contain credentials (raise --budget-ms)\n');
    return EXIT_BUDGET_EXHAUSTED;
  }
  return 0;
}
