import type { Secret } from '../resources/types.js';

export type SecretLookup = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: 'SecretMissing' | 'SecretKeyMissing' | 'SecretValueEmpty'; readonly message: string };

/** Read one key of a Secret in the namespace, as Kubernetes stores it (base64 data) or as written (stringData). */
export function readSecretKey(secrets: readonly Secret[], namespace: string, name: string, key: string): SecretLookup {
  const secret = secrets.find((s) => s.metadata.name === name && (s.metadata.namespace ?? 'default') === namespace);
  if (!secret) return { ok: false, reason: 'SecretMissing', message: `Secret "${name}" not found in namespace "${namespace}"` };
  let value: string | undefined = secret.stringData?.[key];
  if (value === undefined) {
    const encoded = secret.data?.[key];
    if (encoded !== undefined) value = Buffer.from(encoded, 'base64').toString('utf8');
  }
  if (value === undefined) return { ok: false, reason: 'SecretKeyMissing', message: `Secret "${name}" has no key "${key}"` };
  // Secrets made with `echo` or editors end in a newline that no provider accepts.
  value = value.trim();
  if (value === '') return { ok: false, reason: 'SecretValueEmpty', message: `Secret "${name}" key "${key}" is empty` };
  return { ok: true, value };
}
