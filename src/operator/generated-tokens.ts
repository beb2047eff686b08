import { generateToken } from '../auth/token.js';
import { GENERATED_TOKEN_KEY, generatedTokenSecretName } from '../reconcile/desired-records.js';
import { API_VERSION, type Secret } from '../resources/types.js';
import { COMPONENT, SECRET_LABEL, SECRET_LABEL_VALUE, generatedSecretOwnership, namespaceOf, type ClusterToken } from './kube-objects.js';
import type { KubeWriter } from './kube-writer.js';

/** The Secret that carries a generated token's value, owned (and so garbage-collected) by its GatewayToken. */
export function generatedTokenSecret(token: ClusterToken, value: string): Secret {
  if (!token.metadata.uid) throw new Error(`GatewayToken ${token.metadata.name} has no uid`);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: generatedTokenSecretName(token.metadata.name),
      namespace: namespaceOf(token),
      labels: { 'app.kubernetes.io/managed-by': COMPONENT, [SECRET_LABEL]: SECRET_LABEL_VALUE },
      annotations: { 'gw.io/token': token.metadata.name },
      ownerReferences: [{ apiVersion: API_VERSION, kind: 'GatewayToken', name: token.metadata.name, uid: token.metadata.uid, controller: true }],
    },
    type: 'Opaque',
    data: { [GENERATED_TOKEN_KEY]: Buffer.from(value, 'utf8').toString('base64') },
  };
}

export type GeneratedSecretOutcome =
  { readonly kind: 'existing'; readonly secret: Secret } | { readonly kind: 'generated'; readonly secret: Secret } | { readonly kind: 'foreign'; readonly message: string };

/**
 * Make sure a GatewayToken without a hash has its generated Secret. The
 * value is generated here and written once: an existing Secret of this
 * token is kept as it is (never rotated silently), a Secret left by an
 * earlier token of the same name is replaced, and someone else's Secret of
 * that name is left alone and reported.
 */
export async function ensureGeneratedTokenSecret(writer: KubeWriter, token: ClusterToken, cached: Secret | undefined): Promise<GeneratedSecretOutcome> {
  const namespace = namespaceOf(token);
  const name = generatedTokenSecretName(token.metadata.name);
  let existing = cached;
  for (let attempt = 0; attempt < 2; attempt++) {
    const ownership = generatedSecretOwnership(existing, token);
    if (ownership === 'ours') return { kind: 'existing', secret: existing as Secret };
    if (ownership === 'foreign') return { kind: 'foreign', message: `Secret "${name}" exists and is not owned by this GatewayToken; delete or rename it, and the operator generates the token` };
    if (ownership === 'stale') await writer.deleteSecret(namespace, name, existing?.metadata.uid);
    const created = await writer.createSecret(generatedTokenSecret(token, generateToken()));
    if (created) return { kind: 'generated', secret: created };
    // The cache had not seen a Secret that exists: judge the real one.
    existing = (await writer.readSecret(namespace, name)) ?? undefined;
  }
  throw new Error(`Secret ${namespace}/${name} keeps changing under the operator; will retry`);
}
