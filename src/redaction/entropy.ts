// Shannon entropy in bits per character. Secrets are ASCII and scanned
// strings are one byte per character, so a 256-slot table suffices; it is
// reused across calls because this runs once per candidate on the hot path.
const counts = new Uint32Array(256);

export function shannonEntropy(value: string): number {
  const n = value.length;
  if (n === 0) return 0;
  for (let i = 0; i < n; i++) counts[value.charCodeAt(i) & 0xff]!++;
  let bits = 0;
  for (let i = 0; i < n; i++) {
    const code = value.charCodeAt(i) & 0xff;
    const c = counts[code]!;
    if (c === 0) continue;
    const p = c / n;
    bits -= p * Math.log2(p);
    counts[code] = 0;
  }
  return bits;
}
