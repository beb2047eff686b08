/** USD per million tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite5m: number;
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
}

/** The upstream vendor's pricing rule of thumb: cache writes 1.25× (5 m) and 2× (1 h) input, reads 0.1×. */
export function priceFromBase(input: number, output: number): Price {
  return {
    input,
    output,
    cacheWrite5m: round(input * 1.25),
    cacheWrite1h: round(input * 2),
    cacheRead: round(input * 0.1),
  };
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
