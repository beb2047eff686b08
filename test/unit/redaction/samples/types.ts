/** A text in which the rule must find exactly `secret`. */
export interface TruePositive {
  readonly before: string;
  readonly secret: string;
  readonly after: string;
}

export interface RuleSamples {
  readonly tp: readonly TruePositive[];
  /** Look-alikes the rule must not report. */
  readonly fp: readonly string[];
}

export type SampleTable = Readonly<Record<string, RuleSamples>>;

export const tp = (before: string, secret: string, after = ''): TruePositive => ({ before, secret, after });
