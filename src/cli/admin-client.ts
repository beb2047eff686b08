import { LOGS_COMMAND, USAGE_COMMAND } from '../config/commands.js';
import { parseCommandLine, type CommandLine } from '../config/command-line.js';
import { envText } from '../config/env-settings.js';
import { ConfigError } from '../config/load-resources.js';
import { readUsageStoreConfig } from '../config/usage-config.js';
import { logsCsv, reportCsv } from '../usage/csv.js';
import { PERIODS, REPORT_GROUPS, type LogsQuery, type Period, type ReportGroup, type ReportQuery } from '../usage/report.js';
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

/** The query both ways of reading take: checked here once, so the API and the database are asked the same. */
function queryOf(kind: 'logs' | 'usage', args: CommandLine, problems: string[]): { logs?: LogsQuery; report?: ReportQuery; params: URLSearchParams } {
  const params = new URLSearchParams();
  const iso = (name: string): string | undefined => {
    const raw = args.value(name);
    if (raw === undefined || raw === '') return undefined;
    const t = Date.parse(raw);
    if (Number.isNaN(t)) {
      problems.push(`--${name} must be a date or date-time, got "${raw}"`);
      return undefined;
    }
    params.set(name, raw);
    return new Date(t).toISOString();
  };
  const company = args.value('company');
  if (company !== undefined) params.set('company', company);
  const range = { ...(company !== undefined ? { company } : {}), ...spread('since', iso('since')), ...spread('until', iso('until')) };
  if (kind === 'logs') {
    const limit = Number(args.value('limit') ?? '100');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) problems.push('--limit must be an integer from 1 to 100000');
    const order = args.value('order') ?? 'time';
    if (order !== 'time' && order !== 'cost') problems.push('--order must be time (newest first) or cost (most expensive first)');
    params.set('limit', String(limit));
    params.set('order', order);
    const address = args.value('address');
    const model = args.value('model');
    if (address !== undefined) params.set('address', address);
    if (model !== undefined) params.set('model', model);
    return { params, logs: { ...range, limit, order: order === 'cost' ? 'cost' : 'time', ...spread('address', address), ...spread('model', model) } };
  }
  const groupBy = (args.value('by') ?? 'address') as ReportGroup;
  if (!REPORT_GROUPS.includes(groupBy)) problems.push(`--by must be one of ${REPORT_GROUPS.join(', ')}`);
  const period = args.value('period') as Period | undefined;
  if (period !== undefined && !PERIODS.includes(period)) problems.push(`--period must be one of ${PERIODS.join(', ')}`);
  params.set('group_by', groupBy);
  if (period !== undefined) params.set('period', period);
  return { params, report: { ...range, groupBy, ...spread('period', period) } };
}

function spread<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
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
