import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generateToken, hashToken } from '../../src/auth/token.js';

export interface CredentialSpec {
  name: string;
  provider: 'vendor' | 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d';
  baseUrl: string;
  secret: string;
  kind?: 'apiKey' | 'subscriptionSeat';
  maxConcurrency?: number;
  models?: string[];
  priority?: number;
  authScheme?: 'xApiKey' | 'bearer';
  namespace?: string;
}

export interface TestConfig {
  readonly file: string;
  readonly dir: string;
  /** token name → token value */
  readonly tokens: Record<string, string>;
}

/** Write a gw serve file (resource documents) for a test, with fresh tokens. */
export function writeGatewayConfig(input: {
  namespace?: string;
  settings?: Record<string, unknown>;
  tokens?: string[];
  revoked?: string[];
  credentials: CredentialSpec[];
  extraDocs?: unknown[];
}): TestConfig {
  const namespace = input.namespace ?? 'acme';
  const dir = mkdtempSync(join(tmpdir(), 'gw-config-'));
  const docs: unknown[] = [];
  docs.push({ apiVersion: 'gw.io/v1alpha1', kind: 'GatewaySettings', metadata: { name: 'settings', namespace }, spec: { tokenDomain: `${namespace}.example`, ...(input.settings ?? {}) } });
  const tokens: Record<string, string> = {};
  for (const name of input.tokens ?? ['alice']) {
    const token = generateToken();
    tokens[name] = token;
    docs.push({
      apiVersion: 'gw.io/v1alpha1',
      kind: 'GatewayToken',
      metadata: { name, namespace },
      spec: { displayName: name, tokenHash: hashToken(token), revoked: (input.revoked ?? []).includes(name) },
    });
  }
  for (const c of input.credentials) {
    const ns = c.namespace ?? namespace;
    docs.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `${c.name}-secret`, namespace: ns, labels: { 'gw.io/secret': 'true' } }, stringData: { key: c.secret } });
    const spec: Record<string, unknown> = { provider: c.provider, kind: c.kind ?? 'apiKey', secretRef: { name: `${c.name}-secret`, key: 'key' }, baseUrl: c.baseUrl };
    if (c.maxConcurrency !== undefined) spec.maxConcurrency = c.maxConcurrency;
    if (c.models !== undefined) spec.models = c.models;
    if (c.priority !== undefined) spec.priority = c.priority;
    if (c.authScheme !== undefined) spec.authScheme = c.authScheme;
    docs.push({ apiVersion: 'gw.io/v1alpha1', kind: 'ProviderCredential', metadata: { name: c.name, namespace: ns }, spec });
  }
  docs.push(...(input.extraDocs ?? []));
  const file = join(dir, 'gateway.yaml');
  writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  return { file, dir, tokens };
}
