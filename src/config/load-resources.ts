import type { ErrorObject } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { API_VERSION, type GatewaySettings, type GatewayToken, type ProviderCredential, type Secret } from '../resources/types.js';
import type { ResourceSet } from '../reconcile/desired-records.js';
import { settingsProblems } from '../reconcile/settings-problems.js';
import { resourceValidators } from './schemas.js';
import { ConfigError } from './config-error.js';

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Replace ${VAR} in every string scalar (not in the raw text, so a value can never break the YAML). */
function expandEnv(node: unknown, env: NodeJS.ProcessEnv, where: string, problems: string[]): unknown {
  if (typeof node === 'string') {
    return node.replace(ENV_REF, (_, name: string) => {
      const value = env[name];
      if (value === undefined) {
        problems.push(`${where}: environment variable ${name} is not set`);
        return '';
      }
      return value;
    });
  }
  if (Array.isArray(node)) return node.map((v, i) => expandEnv(v, env, `${where}[${i}]`, problems));
  if (typeof node === 'object' && node !== null) {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expandEnv(v, env, `${where}.${k}`, problems)]));
  }
  return node;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}${e.keyword === 'enum' ? ` (${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})` : ''}`,
  );
}

/**
 * Read a multi-document YAML file of GatewaySettings, GatewayToken,
 * ProviderCredential and Secret documents, validated against the CRD
 * schemas. Every problem is reported at once.
 */
export function loadResources(text: string, env: NodeJS.ProcessEnv = process.env, source = 'file'): ResourceSet {
  const problems: string[] = [];
  const settings: GatewaySettings[] = [];
  const tokens: GatewayToken[] = [];
  const credentials: ProviderCredential[] = [];
  const secrets: Secret[] = [];
  const validators = resourceValidators();
  const seen = new Set<string>();
  const docs = parseAllDocuments(text);
  docs.forEach((doc, index) => {
    const where = `${source} document ${index + 1}`;
    if (doc.errors.length > 0) {
      for (const e of doc.errors) problems.push(`${where}: YAML ${e.message.split('\n')[0]}`);
      return;
    }
    const raw: unknown = doc.toJS();
    if (raw === null || raw === undefined) return;
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(`${where}: expected a mapping with apiVersion, kind, metadata`);
      return;
    }
    const value = expandEnv(raw, env, where, problems) as Record<string, unknown>;
    const kind = value.kind;
    const meta = value.metadata as { name?: unknown; namespace?: unknown } | undefined;
    const name = typeof meta?.name === 'string' ? meta.name : undefined;
    const label = `${where} (${typeof kind === 'string' ? kind : '?'}${name ? ` ${name}` : ''})`;
    if (!name || !NAME.test(name)) problems.push(`${label}: metadata.name must be a DNS-1123 name`);
    if (meta?.namespace !== undefined && (typeof meta.namespace !== 'string' || !NAME.test(meta.namespace))) problems.push(`${label}: metadata.namespace must be a DNS-1123 name`);
    const key = `${String(kind)}/${String(meta?.namespace ?? 'default')}/${String(name)}`;
    if (seen.has(key)) problems.push(`${label}: defined twice`);
    seen.add(key);
    if (kind === 'Secret') {
      if (value.apiVersion !== 'v1') problems.push(`${label}: apiVersion must be v1`);
      for (const field of ['data', 'stringData'] as const) {
        const map = value[field];
        if (map === undefined) continue;
        if (typeof map !== 'object' || map === null || Object.values(map).some((v) => typeof v !== 'string')) problems.push(`${label}: ${field} must map keys to strings`);
      }
      secrets.push(value as unknown as Secret);
      return;
    }
    const validate = typeof kind === 'string' ? validators.get(kind) : undefined;
    if (!validate) {
      problems.push(`${label}: kind must be one of GatewaySettings, GatewayToken, ProviderCredential, Secret`);
      return;
    }
    if (value.apiVersion !== API_VERSION) problems.push(`${label}: apiVersion must be ${API_VERSION}`);
    if (value.spec === undefined) value.spec = {};
    if (!validate(value)) {
      for (const message of describe(validate.errors)) problems.push(`${label}: ${message}`);
      return;
    }
    if (kind === 'GatewaySettings') {
      // What the schema cannot check (time zone, model ids, contradicting limits) refuses the file too.
      const semantic = settingsProblems((value as unknown as GatewaySettings).spec);
      for (const p of semantic) problems.push(`${label}: ${p.field}: ${p.message}`);
      if (semantic.length === 0) settings.push(value as unknown as GatewaySettings);
    } else if (kind === 'GatewayToken') tokens.push(value as unknown as GatewayToken);
    else credentials.push(value as unknown as ProviderCredential);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return { settings, tokens, credentials, secrets };
}
