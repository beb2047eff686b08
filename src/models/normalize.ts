/** Capitals, dashes and dots in a model id do not change which model is selected (spec §2.4). */
export function normalizeModelId(id: string): string {
  let out = '';
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c === 0x2d /* - */ || c === 0x2e /* . */) continue;
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c + 32) : id[i];
  }
  return out;
}
