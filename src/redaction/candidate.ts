/** A secret found in a scanned string, in that string's offsets (the engine finds them, pairs.ts extends them). */
export interface Candidate {
  start: number;
  end: number;
  rule: number;
}
