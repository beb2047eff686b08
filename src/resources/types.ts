import type { AuthScheme, ProviderName } from '../models/providers.js';

/**
 * The resource documents owners write (as CRDs in a cluster, or in one file
 * for `gw serve`). Their JSON schemas live in crds/ and are the single
 * source of truth; these types mirror them after defaults are applied.
 */
export const API_GROUP = 'gw.io';
export const API_VERSION = 'gw.io/v1alpha1';

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }>;
}

export interface GatewayTokenSpec {
  displayName?: string;
  revoked?: boolean;
  /** `sha256:<hex>`; absent means the operator generates the token. */
  tokenHash?: string;
}

export interface GatewayToken {
  apiVersion: typeof API_VERSION;
  kind: 'GatewayToken';
  metadata: ObjectMeta;
  spec: GatewayTokenSpec;
}

export interface SecretKeyRef {
  name: string;
  key: string;
}

export interface ProviderCredentialSpec {
  provider: ProviderName;
  kind: 'apiKey' | 'subscriptionSeat';
  secretRef: SecretKeyRef;
  baseUrl?: string;
  authScheme?: AuthScheme;
  maxConcurrency?: number;
  models?: string[];
  priority?: number;
}

export interface ProviderCredential {
  apiVersion: typeof API_VERSION;
  kind: 'ProviderCredential';
  metadata: ObjectMeta;
  spec: ProviderCredentialSpec;
}

export type SpendWindow = 'daily' | 'weekly' | 'monthly';

export interface SpendLimitSpec {
  window: SpendWindow;
  usd: number;
}

export interface PriceSpec {
  input: number;
  output: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
  cacheRead?: number;
}

export interface GatewaySettingsSpec {
  tokenDomain?: string;
  repositoryAttribution?: boolean;
  endUserRecording?: boolean;
  secretScanning?: boolean;
  traceContextToProvider?: boolean;
  /** Per provider, the listed models switched on (`*` switches on every listed model). */
  models?: Partial<Record<ProviderName, { enabled: string[] }>>;
  spendLimits?: {
    timeZone?: string;
    perToken?: SpendLimitSpec[];
    company?: SpendLimitSpec[];
    refuseUnpriced?: boolean;
  };
  callerConcurrency?: {
    default?: number;
    queueWaitSeconds?: number;
    /** Per token name. */
    overrides?: Record<string, number>;
  };
  prices?: Record<string, PriceSpec>;
}

export interface GatewaySettings {
  apiVersion: typeof API_VERSION;
  kind: 'GatewaySettings';
  metadata: ObjectMeta;
  spec: GatewaySettingsSpec;
}

export interface Secret {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: ObjectMeta;
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export type GatewayResource = GatewayToken | ProviderCredential | GatewaySettings;
export type AnyDocument = GatewayResource | Secret;
