import type { GatewaySettingsSpec, GatewayTokenSpec, ProviderCredentialSpec } from './generated.js';

export type { GatewaySettingsSpec, GatewayTokenSpec, ProviderCredentialSpec } from './generated.js';

/**
 * The resource documents owners write (as CRDs in a cluster, or in one file
 * for `gw serve`). Their JSON schemas live in crds/ and are the single
 * source of truth: the spec types are generated from them (generated.ts,
 * by scripts/gen-resource-types.mjs); this file adds the envelopes and names
 * the parts other modules use.
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

export interface GatewayToken {
  apiVersion: typeof API_VERSION;
  kind: 'GatewayToken';
  metadata: ObjectMeta;
  spec: GatewayTokenSpec;
}

export type SecretKeyRef = ProviderCredentialSpec['secretRef'];

export interface ProviderCredential {
  apiVersion: typeof API_VERSION;
  kind: 'ProviderCredential';
  metadata: ObjectMeta;
  spec: ProviderCredentialSpec;
}

export type SpendLimitSpec = NonNullable<NonNullable<GatewaySettingsSpec['spendLimits']>['perToken']>[number];
export type SpendWindow = SpendLimitSpec['window'];
export type PriceSpec = NonNullable<GatewaySettingsSpec['prices']>[string];

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
