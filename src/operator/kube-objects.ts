import { API_GROUP, type GatewaySettings, type GatewayToken, type ProviderCredential, type Secret } from '../resources/types.js';

/**
 * The cluster's view of our resources: the documents `gw serve` reads, plus
 * the status the operator writes. Kept free of client-node types so the
 * decisions built on them stay plain functions.
 */
export const FINALIZER = 'gw.io/cleanup';
export const CRD_VERSION = 'v1alpha1';
export const GROUP = API_GROUP;
export const COMPONENT = 'gw-operator';
/**
 * The operator lists and watches only Secrets carrying this label (least
 * privilege in what it holds and receives: RBAC cannot narrow list/watch by
 * label, the selector does). Credential Secrets must carry it; the Secrets the
 * operator generates for tokens carry it too.
 */
export const SECRET_LABEL = 'gw.io/secret';
export const SECRET_LABEL_VALUE = 'true';
export const SECRET_SELECTOR = `${SECRET_LABEL}=${SECRET_LABEL_VALUE}`;

export type ManagedKind = 'GatewayToken' | 'ProviderCredential' | 'GatewaySettings';

export const PLURALS: Readonly<Record<ManagedKind, string>> = {
  GatewayToken: 'gatewaytokens',
  ProviderCredential: 'providercredentials',
  GatewaySettings: 'gatewaysettings',
};

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface ResourceStatus {
  observedGeneration?: number;
  conditions?: Condition[];
  /** GatewayToken: `<name>@<token domain>`. */
  address?: string;
  /** GatewayToken without a hash: the Secret holding the generated value. */
  secretName?: string;
  /** ProviderCredential: false once the provider answered 401/403 (the data planes skip it). */
  healthy?: boolean;
  [field: string]: unknown;
}

export type ClusterToken = GatewayToken & { status?: ResourceStatus };
export type ClusterCredential = ProviderCredential & { status?: ResourceStatus };
export type ClusterSettings = GatewaySettings & { status?: ResourceStatus };
export type ClusterResource = ClusterToken | ClusterCredential | ClusterSettings;

export function namespaceOf(obj: { metadata: { namespace?: string } }): string {
  return obj.metadata.namespace ?? 'default';
}

export function isDeleting(obj: { metadata: { deletionTimestamp?: string } }): boolean {
  return Boolean(obj.metadata.deletionTimestamp);
}

export function hasFinalizer(obj: { metadata: { finalizers?: string[] } }): boolean {
  return (obj.metadata.finalizers ?? []).includes(FINALIZER);
}

export function readyCondition(obj: { status?: ResourceStatus }): Condition | undefined {
  return obj.status?.conditions?.find((c) => c.type === 'Ready');
}

/** Who a Secret named like a generated-token Secret belongs to. */
export type GeneratedSecretOwnership = 'missing' | 'ours' | 'stale' | 'foreign';

/**
 * `ours`: controlled by this very GatewayToken (same uid). `stale`: left by
 * an earlier GatewayToken of the same name (deleted and made again before
 * garbage collection ran); its value must never serve the new token.
 * `foreign`: someone else's Secret, which the operator leaves alone.
 */
export function generatedSecretOwnership(secret: Secret | undefined, token: GatewayToken): GeneratedSecretOwnership {
  if (!secret) return 'missing';
  const controller = (secret.metadata.ownerReferences ?? []).find((r) => r.controller);
  if (!controller || controller.kind !== 'GatewayToken' || !controller.apiVersion.startsWith(`${GROUP}/`)) return 'foreign';
  if (controller.uid === token.metadata.uid) return 'ours';
  return controller.name === token.metadata.name ? 'stale' : 'foreign';
}
