import { normalizeModelId } from '../models/normalize.js';
import { priceFromBase, type Price } from '../models/price.js';
import type { ProviderName } from '../models/providers.js';
import type { GatewaySettingsSpec } from '../resources/types.js';
import type { CompanySettings } from '../state/records.js';

export const SETTINGS_DEFAULTS = {
  callerCap: 16,
  queueWaitSeconds: 5,
  timeZone: 'UTC',
} as const;

/** Company settings with every default applied; the one place defaults live. */
export function settingsRecord(company: string, spec: GatewaySettingsSpec | undefined): CompanySettings {
  const s = spec ?? {};
  const enabledModels: Partial<Record<ProviderName, readonly string[]>> = {};
  for (const [provider, entry] of Object.entries(s.models ?? {}) as Array<[ProviderName, { enabled: string[] } | undefined]>) {
    if (entry) enabledModels[provider] = entry.enabled.map((id) => (id === '*' ? '*' : normalizeModelId(id)));
  }
  const prices: Record<string, Price> = {};
  for (const [id, p] of Object.entries(s.prices ?? {})) {
    const base = priceFromBase(p.input, p.output);
    prices[normalizeModelId(id)] = {
      input: p.input,
      output: p.output,
      cacheWrite5m: p.cacheWrite5m ?? base.cacheWrite5m,
      cacheWrite1h: p.cacheWrite1h ?? base.cacheWrite1h,
      cacheRead: p.cacheRead ?? base.cacheRead,
    };
  }
  return {
    company,
    tokenDomain: s.tokenDomain ?? company,
    repositoryAttribution: s.repositoryAttribution ?? false,
    endUserRecording: s.endUserRecording ?? false,
    secretScanning: s.secretScanning ?? false,
    traceContextToProvider: s.traceContextToProvider ?? false,
    enabledModels,
    timeZone: s.spendLimits?.timeZone ?? SETTINGS_DEFAULTS.timeZone,
    perTokenLimits: (s.spendLimits?.perToken ?? []).map((l) => ({ window: l.window, usd: l.usd })),
    companyLimits: (s.spendLimits?.company ?? []).map((l) => ({ window: l.window, usd: l.usd })),
    refuseUnpriced: s.spendLimits?.refuseUnpriced ?? false,
    callerCap: s.callerConcurrency?.default ?? SETTINGS_DEFAULTS.callerCap,
    queueWaitMs: Math.round((s.callerConcurrency?.queueWaitSeconds ?? SETTINGS_DEFAULTS.queueWaitSeconds) * 1000),
    capOverrides: { ...(s.callerConcurrency?.overrides ?? {}) },
    prices,
  };
}
