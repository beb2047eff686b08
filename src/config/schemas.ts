import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { packageRoot } from './package-root.js';

type Schema = Record<string, unknown>;

export interface CrdDocument {
  spec: {
    group: string;
    names: { kind: string; plural: string };
    versions: Array<{ name: string; schema: { openAPIV3Schema: Schema } }>;
  };
}

export function readCrds(dir = join(packageRoot(), 'crds')): CrdDocument[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as CrdDocument);
}

/**
 * Kubernetes rejects unknown fields (strict field validation) and drops the
 * OpenAPI extensions; for ajv, mark every object with declared properties as
 * closed and strip what JSON Schema does not know.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-kubernetes-') || key === 'format') continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, toJsonSchema(v)])) : toJsonSchema(value);
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

let compiled: Map<string, ValidateFunction> | null = null;

/** Validators by kind for the documents of a gw serve file, compiled once from crds/. */
export function resourceValidators(): Map<string, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
  compiled = new Map();
  for (const crd of readCrds()) {
    const version = crd.spec.versions[0];
    if (!version) continue;
    const schema = toJsonSchema(version.schema.openAPIV3Schema) as Schema;
    // A file document carries metadata we check ourselves; status is never read from a file.
    const props = schema.properties as Schema;
    props.metadata = { type: 'object' };
    delete props.status;
    compiled.set(crd.spec.names.kind, ajv.compile(schema));
  }
  return compiled;
}
