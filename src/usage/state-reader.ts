import type { UsageRecord } from '../metering/usage-record.js';
import type { TokenDirectory, UsageLog } from '../state/state.js';
import { logsOf, reportOf, type Answer, type LogsQuery, type ReportQuery, type ReportRow, type UsageReader } from './report.js';

/**
 * Usage and Logs from the gateway state (memory, or the Redis streams) when
 * no PostgreSQL is configured: the records it still holds, with the count
 * of those it no longer holds.
 */
export class StateUsageReader implements UsageReader {
  constructor(private readonly state: UsageLog & Pick<TokenDirectory, 'getCompany'>) {}

  private async held(company: string | undefined, since: string | undefined): Promise<UsageRecord[]> {
    return this.state.queryLogs({ ...(company !== undefined ? { company } : {}), ...(since !== undefined ? { since } : {}), limit: Number.MAX_SAFE_INTEGER });
  }

  async logs(query: LogsQuery): Promise<Answer<UsageRecord[]>> {
    const records = await this.held(query.company, query.since);
    return { data: logsOf(records, query), droppedRecords: await this.state.usageDropped(query.company) };
  }

  async report(query: ReportQuery): Promise<Answer<ReportRow[]>> {
    const records = await this.held(query.company, query.since);
    const zones = new Map<string, string>();
    for (const r of records) {
      if (zones.has(r.company)) continue;
      zones.set(r.company, (await this.state.getCompany(r.company))?.settings.timeZone ?? 'UTC');
    }
    return { data: reportOf(records, query, (c) => zones.get(c) ?? 'UTC'), droppedRecords: await this.state.usageDropped(query.company) };
  }
}
