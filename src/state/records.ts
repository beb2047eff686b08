import type { Price } from '../models/price.js';
import type { AuthScheme, ProviderName } from '../models/providers.js';
import type { SpendWindow } from '../resources/types.js';

/**
 * What the data planes read. Records are computed from resources by
 * reconcile (a pure function) and written into a GatewayState.
 */
export interface TokenRecord {
  readonly hash: string;
  readonly company: string;
  readonly name: string;
  readonly address: string;
}

export interface SpendLimit {
  readonly window: SpendWindow;
  readonly usd: number;
}

export interface CompanySettings {
  readonly company: string;
  readonly tokenDomain: string;
  readonly repositoryAttribution: boolean;
  readonly endUserRecording: boolean;
  readonly secretScanning: boolean;
  /** Send a W3C traceparent to the provider (off: trace context never leaves for a third party). */
  readonly traceContextToProvider: boolean;
  /** Provider → normalized ids switched on; `null` where the settings name no list for it. */
  readonly enabledModels: Readonly<Partial<Record<ProviderName, readonly string[]>>>;
  readonly timeZone: string;
  readonly perTokenLimits: readonly SpendLimit[];
  readonly companyLimits: readonly SpendLimit[];
  readonly refuseUnpriced: boolean;
  readonly callerCap: number;
  readonly queueWaitMs: number;
  readonly capOverrides: Readonly<Record<string, number>>;
  /** Keyed by normalized model id. */
  readonly prices: Readonly<Record<string, Price>>;
}

export interface CredentialRecord {
  readonly company: string;
  readonly name: string;
  readonly provider: ProviderName;
  readonly kind: 'apiKey' | 'subscriptionSeat';
  readonly secret: string;
  readonly baseUrl: string;
  readonly authScheme: AuthScheme;
  readonly maxConcurrency: number;
  /** Normalized ids this credential is restricted to; null = any. */
  readonly models: readonly string[] | null;
  readonly priority: number;
}

/** Everything one company needs, as one consistent snapshot. */
export interface CompanyRecords {
  readonly company: string;
  readonly settings: CompanySettings;
  readonly tokens: readonly TokenRecord[];
  readonly credentials: readonly CredentialRecord[];
}
