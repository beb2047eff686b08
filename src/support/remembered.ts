/**
 * A function whose answers are kept by their key, for work a request repeats on the same few inputs (a model id's
 * normal form, a repo slug's verdict, a provider origin's parts). The keys may come from callers, so the table is
 * bounded: when it is full it starts over, rather than grow or keep track of use. Keys longer than `maxKeyLength`
 * are answered and not kept. `compute` must be pure; an `undefined` answer is never kept.
 */
export function remembered<V>(compute: (key: string) => V, { entries = 1024, maxKeyLength = Number.POSITIVE_INFINITY } = {}): (key: string) => V {
  const table = new Map<string, V>();
  return (key: string): V => {
    const known = table.get(key);
    if (known !== undefined) return known;
    const value = compute(key);
    if (key.length <= maxKeyLength) {
      if (table.size >= entries) table.clear();
      table.set(key, value);
    }
    return value;
  };
}
