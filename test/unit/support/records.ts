import type { CompanyRecords, CompanySettings, CredentialRecord, TokenRecord } from '../../../src/state/records.js';

/** Settings as reconcile would produce them with no GatewaySettings document, with overrides. */
export function companySettings(overrides: Partial<CompanySettings> = {}): CompanySettings {
  return {
    company: 'acme',
    tokenDomain: 'acme.example',
    repositoryAttribution: false,
    endUserRecording: false,
    secretScanning: false,
    traceContextToProvider: false,
    enabledModels: {},
    timeZone: 'UTC',
    perTokenLimits: [],
    companyLimits: [],
    refuseUnpriced: false,
    callerCap: 16,
    queueWaitMs: 5000,
    capOverrides: {},
    prices: {},
    ...overrides,
  };
}

export function credential(overrides: Partial<CredentialRecord> & { name: string }): CredentialRecord {
  return {
    company: 'acme',
    provider: 'vendor',
    kind: 'apiKey',
    secret: `sk-${overrides.name}`,
    baseUrl: 'https://api.anthropic.com',
    authScheme: 'xApiKey',
    maxConcurrency: 4,
    models: null,
    priority: 0,
    ...overrides,
  };
}

export function company(input: { settings?: Partial<CompanySettings>; credentials?: CredentialRecord[]; tokens?: TokenRecord[] } = {}): CompanyRecords {
  return { company: 'acme', settings: companySettings(input.settings), tokens: input.tokens ?? [], credentials: input.credentials ?? [] };
}
