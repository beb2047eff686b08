import { describe, expect, it } from 'vitest';
import { encodeCursor, readLogsQuery, readReportQuery, searchParamsSource, type QueryField, type QuerySource } from '../../../src/usage/query-params.js';

/** A source named the way the CLI names its flags (`--by`), over a plain map. */
function cliSource(values: Partial<Record<string, string>>): QuerySource {
  const flag = (field: QueryField): string => (field === 'groupBy' ? 'by' : field);
  return { value: (field) => values[flag(field)], label: (field) => `--${flag(field)}` };
}

describe('the one Usage and Logs query reader', () => {
  it('reads the same query from the CLI, the API and the console, each with its own names', () => {
    const cli = readReportQuery(cliSource({ company: 'acme', since: '2026-11-01', by: 'model', period: 'week' }), []);
    const api = readReportQuery(searchParamsSource(new URLSearchParams('company=acme&since=2026-11-01&group_by=model&period=week')), []);
    const consoleQuery = readReportQuery(searchParamsSource(new URLSearchParams('company=acme&from=2026-11-01&group_by=model&period=week'), { since: 'from', until: 'to' }), []);
    expect(cli).toEqual({ company: 'acme', since: '2026-11-01T00:00:00.000Z', groupBy: 'model', period: 'week' });
    expect(api).toEqual(cli);
    expect(consoleQuery).toEqual(cli);
  });

  it('names a problem the way the caller wrote the field, and reports every problem at once', () => {
    const cliProblems: string[] = [];
    readReportQuery(cliSource({ since: 'yesterday-ish', by: 'colour', period: 'fortnight' }), cliProblems);
    expect(cliProblems).toEqual([
      '--since must be a date or date-time, got "yesterday-ish"',
      '--by must be one of address, model, provider, repo, application, end_user',
      '--period must be one of day, week, month',
    ]);
    const apiProblems: string[] = [];
    readLogsQuery(searchParamsSource(new URLSearchParams('limit=0&order=random&after=@@')), apiProblems);
    expect(apiProblems).toEqual(['"limit" must be an integer from 1 to 100000', '"order" must be time (newest first) or cost (most expensive first)', '"after" is not a page mark this gateway made']);
  });

  it('takes its limits and default period from the caller', () => {
    const limits = { maxLimit: 200, defaultLimit: 50, defaultPeriod: 'day' as const };
    expect(readLogsQuery(searchParamsSource(new URLSearchParams('')), [], limits).limit).toBe(50);
    const problems: string[] = [];
    readLogsQuery(searchParamsSource(new URLSearchParams('limit=201')), problems, limits);
    expect(problems).toEqual(['"limit" must be an integer from 1 to 200']);
    expect(readReportQuery(searchParamsSource(new URLSearchParams('')), [], limits).period).toBe('day');
    expect(readReportQuery(searchParamsSource(new URLSearchParams('')), []).period).toBeUndefined();
  });

  it('reads back a page mark it made', () => {
    const cursor = { time: '2026-11-28T06:00:00.000Z', request_id: 'req_1', cost_micros: 1234 };
    const query = readLogsQuery(searchParamsSource(new URLSearchParams({ after: encodeCursor(cursor), order: 'cost' })), []);
    expect(query).toMatchObject({ after: cursor, order: 'cost', limit: 100 });
  });
});
