import { LOGS_COMMAND, USAGE_COMMAND } from '../config/commands.js';
import { parseCommandLine, type CommandLine } from '../config/command-line.js';
import { envText } from '../config/env-settings.js';
import { ConfigError } from '../config/config-error.js';
import { readUsageStoreConfig } from '../config/usage-config.js';
import { logsCsv, reportCsv } from '../usage/csv.js';
import { API_QUERY_PARAMS, readLogsQuery, readReportQuery, type QueryField, type QuerySource } from '../usage/query-params.js';
import type { LogsQuery, ReportQuery } from '../usage/report.js';
import type { CliIo } from './io.js';

type Row = Record<string, unknown>;

const LOG_COLUMNS = ['time', 'request_id', 'address', 'model', 'status', 'fault', 'input_tokens', 'output_tokens', 'cost_usd', 'repo', 'application', 'end_user'];
const USAGE_COLUMNS = ['key', 'requests', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'cost_usd'];

function table(rows: Row[], columns: string[]): string {
  const cells = rows.map((r) => columns.map((c) => (r[c] === undefined || r[c] === null ? '-' : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => (row[i] as string).length)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
}

/** The CLI's names for the query fields: the API's, but `--by` for the grouping. */
const CLI_FLAG: Readonly<Record<QueryField, string>> = { ...API_QUERY_PARAMS, groupBy: 'by' };

/** The query both ways of reading take: checked here once (by the reader the API uses too), so the API and the database are asked the same. */
function queryOf(kind: 'logs' | 'usage', args: CommandLine, problems: string[]): { logs?: LogsQuery; report?: ReportQuery; params: URLSearchParams } {
  // A field this command has no flag for (gw logs has no --after) is simply not given.
  const value = (field: QueryField): string | undefined => (args.declares(CLI_FLAG[field]) ? args.value(CLI_FLAG[field]) : undefined);
  const source: QuerySource = { value, label: (field) => `--${CLI_FLAG[field]}` };
  const params = new URLSearchParams();
  const pass = (field: QueryField, param: string): void => {
    const given = value(field);
    if (given !== undefined && given !== '') params.set(param, given);
  };
  for (const field of ['company', 'since', 'until'] as const) pass(field, field);
  if (kind === 'logs') {
    const logs = readLogsQuery(source, problems);
    params.set('limit', String(logs.limit));
    params.set('order', logs.order);
    pass('address', 'address');
    pass('model', 'model');
    return { params, logs };
  }
  const report = readReportQuery(source, problems);
  params.set('group_by', report.groupBy);
  if (report.period !== undefined) params.set('period', report.period);
  return { params, report };
}

/**
 * `gw logs` and `gw usage`: through the admin API of a running gateway, or
 * with --postgres straight from the database, with the same output either way.
 */
export async function runAdminQuery(kind: 'logs' | 'usage', argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseCommandLine(kind === 'logs' ? LOGS_COMMAND : USAGE_COMMAND, argv, io.env);
  const problems: string[] = [];
  const query = queryOf(kind, args, problems);
  const usageConfig = readUsageStoreConfig(args, io.env, problems);
  if (problems.length > 0) {
    io.stderr.write(`gw ${kind}: ${new ConfigError(problems).message}\n`);
    return 2;
  }
  let rows: Row[];
  let dropped = 0;
  let csv: string | null = null;
  const wantCsv = args.flag('csv');
  if (usageConfig.postgresUrl !== null) {
    const { openDurableUsage } = await import('../runtime/usage-store.js');
    const durable = await openDurableUsage(usageConfig, null);
    if (!durable) return 2;
    try {
      if (query.logs) {
        const answer = await durable.store.logs(query.logs);
        rows = answer.data as unknown as Row[];
        if (wantCsv) csv = logsCsv(answer.data);
      } else {
        const answer = await durable.store.report(query.report as ReportQuery);
        rows = answer.data as unknown as Row[];
        if (wantCsv) csv = reportCsv(answer.data);
      }
    } catch (error) {
      io.stderr.write(`gw ${kind}: PostgreSQL: ${(error as Error).message}\n`);
      return 1;
    } finally {
      await durable.close();
    }
  } else {
    const base = args.value('admin-url') ?? 'http://127.0.0.1:9090';
    const token = envText(io.env, 'GW_ADMIN_TOKEN');
    if (!token) {
      io.stderr.write('gw: set GW_ADMIN_TOKEN to an admin token of the gateway (or a Kubernetes token where it uses --admin-auth kubernetes), or read the database with --postgres\n');
      return 2;
    }
    const url = new URL(kind === 'logs' ? '/admin/v1/logs' : '/admin/v1/usage', base);
    url.search = query.params.toString();
    if (wantCsv) url.searchParams.set('format', 'csv');
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    } catch (error) {
      io.stderr.write(`gw: cannot reach ${url.origin}: ${(error as Error).message}\n`);
      return 1;
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
      io.stderr.write(`${body.error?.message ?? `gw: admin API answered ${response.status}`}\n`);
      return 1;
    }
    if (wantCsv) {
      csv = await response.text();
      dropped = Number(response.headers.get('x-gw-dropped-records') ?? 0);
      rows = [];
    } else {
      const body = (await response.json()) as { data?: Row[]; dropped_records?: number };
      rows = body.data ?? [];
      dropped = body.dropped_records ?? 0;
    }
  }
  if (dropped > 0) io.stderr.write(`gw: ${dropped} older usage record(s) were dropped before this answer; configure PostgreSQL to keep every record\n`);
  if (csv !== null) io.stdout.write(csv);
  else if (args.flag('json')) io.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  else io.stdout.write(table(rows, kind === 'logs' ? LOG_COLUMNS : query.report?.period ? ['period', ...USAGE_COLUMNS] : USAGE_COLUMNS));
  return 0;
}
