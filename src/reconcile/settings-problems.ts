import { isProviderName } from '../models/providers.js';
import type { GatewaySettingsSpec, SpendLimitSpec } from '../resources/types.js';

/** What the CRD schema cannot check about a GatewaySettings, each naming its field. */
export interface SettingsProblem {
  readonly field: string;
  readonly message: string;
}

const zones = new Map<string, boolean>();

/** Whether the runtime's time zone database knows this IANA name (spend windows are computed in it). */
export function isTimeZone(name: string): boolean {
  let known = zones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    zones.set(name, known);
  }
  return known;
}

const MODEL_ID = /^[^\s\u0000-\u001f]{1,256}$/;

function modelIdProblem(id: string): string | null {
  if (!MODEL_ID.test(id)) return `"${id}" is not a model id (1 to 256 characters, no spaces or control characters)`;
  const colon = id.indexOf(':');
  if (colon > 0 && isProviderName(id.slice(0, colon))) return `"${id}" carries a provider prefix; name the model as that provider knows it, under that provider`;
  return null;
}

function limitProblems(limits: readonly SpendLimitSpec[] | undefined, field: string): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  const seen = new Map<string, number>();
  (limits ?? []).forEach((limit, i) => {
    const first = seen.get(limit.window);
    if (first !== undefined) out.push({ field: `${field}[${i}].window`, message: `a second ${limit.window} limit contradicts ${field}[${first}]; keep one per window` });
    else seen.set(limit.window, i);
  });
  return out;
}

/**
 * Validation beyond the schema, shared by the operator (an invalid resource
 * gets Ready=False and its last valid version stays in force) and
 * `gw serve -f` (refused at startup and on reload): an unknown time zone, a
 * malformed model id, two limits for one window. Such settings would
 * otherwise be accepted and fail requests later.
 */
export function settingsProblems(spec: GatewaySettingsSpec): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  const zone = spec.spendLimits?.timeZone;
  if (zone !== undefined && !isTimeZone(zone)) out.push({ field: 'spec.spendLimits.timeZone', message: `"${zone}" is not an IANA time zone (e.g. UTC, Europe/Paris, America/New_York)` });
  out.push(...limitProblems(spec.spendLimits?.perToken, 'spec.spendLimits.perToken'));
  out.push(...limitProblems(spec.spendLimits?.company, 'spec.spendLimits.company'));
  for (const [provider, entry] of Object.entries(spec.models ?? {})) {
    (entry?.enabled ?? []).forEach((id, i) => {
      if (id === '*') return;
      const problem = modelIdProblem(id);
      if (problem) out.push({ field: `spec.models.${provider}.enabled[${i}]`, message: problem });
    });
  }
  for (const id of Object.keys(spec.prices ?? {})) {
    const problem = modelIdProblem(id);
    if (problem) out.push({ field: `spec.prices[${JSON.stringify(id)}]`, message: problem });
  }
  return out;
}
