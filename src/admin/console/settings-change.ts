/**
 * What a JSON merge patch (RFC 7386) makes of a document: the API server
 * applies the console's settings changes this way, so the operator's checks
 * run on exactly the object that will be stored.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields that differ between two versions of a document, as dotted
 * paths (objects are followed down, lists compared whole), to tell a person
 * what someone else changed since their page loaded.
 */
export function changedFields(before: unknown, after: unknown, path: string): string[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => changedFields(before[key], after[key], `${path}.${key}`));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [path];
}

/** A model's switch applied to a provider's list of switched-on models (`*` and the provider's default made explicit first). */
export function switchedModels(current: readonly string[] | undefined, vendorDefault: boolean, listed: readonly string[], id: string, on: boolean, normalize: (id: string) => string): string[] {
  // With no list yet the provider has its default; the switches then start from what the page showed.
  let enabled: string[] = current !== undefined ? [...current] : vendorDefault ? [...listed] : [];
  if (enabled.includes('*')) enabled = [...listed];
  const key = normalize(id);
  enabled = enabled.filter((e) => normalize(e) !== key);
  if (on) enabled.push(id);
  return enabled;
}
