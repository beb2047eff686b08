import { generatedTokenSecretName, type ResourceSet } from '../reconcile/desired-records.js';
import type { Secret } from '../resources/types.js';
import { generatedSecretOwnership, namespaceOf, type ClusterCredential, type ClusterSettings, type ClusterToken } from './kube-objects.js';

/** What the informers hold, read-only: the operator's whole picture of the cluster. */
export interface ClusterView {
  tokens(namespace?: string): readonly ClusterToken[];
  credentials(namespace?: string): readonly ClusterCredential[];
  settings(namespace?: string): readonly ClusterSettings[];
  secrets(namespace: string): readonly Secret[];
}

export interface NamespaceSnapshot {
  readonly namespace: string;
  readonly tokens: readonly ClusterToken[];
  readonly credentials: readonly ClusterCredential[];
  readonly settings: readonly ClusterSettings[];
  readonly secrets: readonly Secret[];
  /** Tokens of other namespaces that name a hash one of ours names: desiredState decides who holds it. */
  readonly rivals: readonly ClusterToken[];
}

export function snapshotOf(view: ClusterView, namespace: string): NamespaceSnapshot {
  const tokens = view.tokens(namespace);
  const hashes = new Set(tokens.map((t) => t.spec.tokenHash).filter((h): h is string => Boolean(h)));
  const rivals = hashes.size === 0 ? [] : view.tokens().filter((t) => namespaceOf(t) !== namespace && t.spec.tokenHash !== undefined && hashes.has(t.spec.tokenHash));
  return { namespace, tokens, credentials: view.credentials(namespace), settings: view.settings(namespace), secrets: view.secrets(namespace), rivals };
}

/** Namespaces whose records depend on a token with this hash (a hash belongs to one company). */
export function namespacesNaming(view: ClusterView, hash: string | undefined): string[] {
  if (!hash) return [];
  return [
    ...new Set(
      view
        .tokens()
        .filter((t) => t.spec.tokenHash === hash)
        .map(namespaceOf),
    ),
  ];
}

export function hasResources(snapshot: NamespaceSnapshot): boolean {
  return snapshot.tokens.length + snapshot.credentials.length + snapshot.settings.length > 0;
}

/**
 * The input of desiredState for one namespace. A generated-token Secret
 * counts only when this very GatewayToken controls it: a Secret left by a
 * deleted token of the same name, or someone else's Secret of that name,
 * must never make a token live.
 */
export function resourceSetOf(snapshot: NamespaceSnapshot, extraSecrets: readonly Secret[] = []): ResourceSet {
  const secrets = [...snapshot.secrets.filter((s) => !extraSecrets.some((e) => e.metadata.name === s.metadata.name)), ...extraSecrets];
  const untrusted = new Set<string>();
  // Deleting tokens too: the hash a deleted generated token revokes is read from its Secret only when the Secret is its own.
  for (const token of snapshot.tokens) {
    if (token.spec.tokenHash) continue;
    const name = generatedTokenSecretName(token.metadata.name);
    if (
      generatedSecretOwnership(
        secrets.find((s) => s.metadata.name === name),
        token,
      ) !== 'ours'
    )
      untrusted.add(name);
  }
  return {
    settings: snapshot.settings,
    tokens: [...snapshot.tokens, ...snapshot.rivals],
    credentials: snapshot.credentials,
    secrets: secrets.filter((s) => !untrusted.has(s.metadata.name)),
  };
}
