/**
 * One row of a Usage report, as the API, the CLI and the console's page
 * read it. A module of its own, with no imports, so the browser's build can
 * import the type without the server's code.
 */
export interface ReportRow extends UsageSums {
  /** First day of the period (YYYY-MM-DD in the company's time zone), when a period was asked for. */
  period?: string;
  key: string | null;
}

/** The sums every row of a report carries. */
export interface UsageSums {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
}

/**
 * The groups of one period that a Usage page does not list one by one (see
 * src/usage/top-groups.ts), summed: how many there are, and their totals.
 */
export interface OthersRow extends UsageSums {
  period?: string;
  groups: number;
}

/** A Usage report as the console's page gets it: the listed groups' rows and the others summed (src/usage/top-groups.ts). */
export interface FoldedReport {
  /** The rows of the listed groups, in the report's order. */
  readonly data: ReportRow[];
  /** One row per period holding unlisted groups, oldest period first; empty when nothing was folded. */
  readonly others: OthersRow[];
  /** Distinct groups in the report, listed or not. */
  readonly groups: number;
  /** Every row of the report summed (without a period). */
  readonly totals: Omit<OthersRow, 'period'>;
}
