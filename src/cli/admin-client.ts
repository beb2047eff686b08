import { parseArgs } from '../config/args.js';
import type { CliIo } from './io.js';

type Row = Record<string, unknown>;

const LOG_COLUMNS = ['time', 'request_id', 'address', 'model', 'status', 'fault', 'input_tokens', 'output_tokens', 'cost_usd', 'repo', 'application', 'end_user'];
const USAGE_COLUMNS = ['key', 'requests', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'cost_usd'];

function table(rows: Row[], columns: string[]): string {
  const cells = rows.map((r) => columns.map((c) => (r[c] === undefined || r[c] === null ? '-' : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] as string).length)));
  const line = (values: string[]): string => values.map((v, i) => v.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
}

/** `gw logs` and `gw usage`: read the admin API of a running gateway and print a table or JSON. */
export async function runAdminQuery(kind: 'logs' | 'usage', argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, ['json']);
  const base = args.values.get('admin-url') ?? io.env.GW_ADMIN_URL ?? 'http://127.0.0.1:9090';
  const token = io.env.GW_ADMIN_TOKEN;
  if (!token) {
    io.stderr.write('gw: set GW_ADMIN_TOKEN to the admin token of the gateway\n');
    return 2;
  }
  const url = new URL(kind === 'logs' ? '/admin/v1/logs' : '/admin/v1/usage', base);
  const names = kind === 'logs' ? ['since', 'address', 'model', 'company', 'limit'] : ['since', 'company'];
  for (const name of names) {
    const value = args.values.get(name);
    if (value !== undefined) url.searchParams.set(name, value);
  }
  if (kind === 'usage') url.searchParams.set('group_by', args.values.get('by') ?? 'address');
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    io.stderr.write(`gw: cannot reach ${url.origin}: ${(error as Error).message}\n`);
    return 1;
  }
  const body = (await response.json()) as { data?: Row[]; error?: { message?: string } };
  if (!response.ok) {
    io.stderr.write(`${body.error?.message ?? `gw: admin API answered ${response.status}`}\n`);
    return 1;
  }
  const rows = body.data ?? [];
  if (args.flags.has('json')) io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  else io.stdout.write(table(rows, kind === 'logs' ? LOG_COLUMNS : USAGE_COLUMNS));
  return 0;
}
