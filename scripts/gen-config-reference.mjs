#!/usr/bin/env node
// Writes docs/configuration.md, the configuration reference, from its
// sources of truth: the CRD schemas in crds/ (the resources owners write),
// charts/model-gateway/values.schema.json with the defaults in values.yaml
// (what the platform team sets at install), and the environment-only settings
// of src/config/env-settings.ts (through the build in dist/).
//
//   node scripts/gen-config-reference.mjs           write docs/configuration.md
//   node scripts/gen-config-reference.mjs --check   exit 1 when it is out of date
//
// The output is deterministic; test/integration/chart/chart-files.test.ts runs
// --check so a schema change without a regenerated reference fails the tests.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CRD_DIR = join(ROOT, 'crds');
const CHART_DIR = join(ROOT, 'charts', 'model-gateway');
const OUT = join(ROOT, 'docs', 'configuration.md');
// The environment-only settings come from their one declaration (src/config/env-settings.ts), through the build.
const { renderEnvironmentTable } = await import(pathToFileURL(join(ROOT, 'dist', 'cli', 'cli-doc.js')).href);

/** Text safe inside a Markdown table cell. */
function cell(text) {
  return String(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function code(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `\`${text.replace(/`/g, "'")}\``;
}

function typeOf(schema) {
  if (!schema) return '';
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  if (schema.type === 'array') {
    const item = schema.items ? typeOf(schema.items) : 'any';
    return `${item}[]`;
  }
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
    return `map of ${typeOf(schema.additionalProperties)}`;
  }
  if (schema.format) return `${schema.type} (${schema.format})`;
  return schema.type ?? (schema['x-kubernetes-preserve-unknown-fields'] ? 'any' : '');
}

/** Limits and allowed values of one field, in words. */
function constraints(schema) {
  const out = [];
  if (schema.enum) out.push(`one of ${schema.enum.map((v) => code(v)).join(', ')}`);
  if (schema.pattern) out.push(`pattern ${code(schema.pattern)}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) out.push(`length ≥ ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`length ≤ ${schema.maxLength}`);
  if (schema.minItems !== undefined) out.push(`at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  const items = schema.items;
  if (items && items.type !== 'object') {
    if (items.enum) out.push(`items: one of ${items.enum.map((v) => code(v)).join(', ')}`);
    if (items.pattern) out.push(`items: pattern ${code(items.pattern)}`);
    if (items.maxLength !== undefined) out.push(`items: length ≤ ${items.maxLength}`);
  }
  return out.join('; ');
}

// ---------------------------------------------------------------------------
// CRDs

function crdRows(schema, path, required, rows) {
  const props = schema.properties ?? {};
  for (const name of Object.keys(props)) {
    const field = props[name];
    const fieldPath = `${path}.${name}`;
    rows.push({
      path: fieldPath,
      type: typeOf(field),
      required: required.includes(name),
      default: field.default,
      limits: constraints(field),
      description: field.description ?? '',
    });
    if (field.type === 'object' && field.properties) crdRows(field, fieldPath, field.required ?? [], rows);
    if (field.type === 'object' && !field.properties && field.additionalProperties && field.additionalProperties.properties) {
      crdRows(field.additionalProperties, `${fieldPath}.<key>`, field.additionalProperties.required ?? [], rows);
    }
    if (field.type === 'array' && field.items && field.items.properties) crdRows(field.items, `${fieldPath}[]`, field.items.required ?? [], rows);
  }
}

function validationRules(schema, path, out) {
  for (const rule of schema['x-kubernetes-validations'] ?? []) out.push({ path, message: rule.message ?? rule.rule });
  for (const [name, field] of Object.entries(schema.properties ?? {})) validationRules(field, `${path}.${name}`, out);
}

function crdSection(file) {
  const crd = parse(readFileSync(join(CRD_DIR, file), 'utf8'));
  const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
  const root = version.schema.openAPIV3Schema;
  const lines = [];
  lines.push(`### ${crd.spec.names.kind}`, '');
  lines.push(
    `\`${crd.spec.group}/${version.name}\`, ${crd.spec.scope.toLowerCase()} (short name${crd.spec.names.shortNames?.length === 1 ? '' : 's'} ${(crd.spec.names.shortNames ?? []).map((s) => `\`${s}\``).join(', ')}); schema: [\`crds/${file}\`](../crds/${file}).`,
    '',
  );
  if (root.description) lines.push(root.description, '');
  for (const part of ['spec', 'status']) {
    const schema = root.properties?.[part];
    if (!schema) continue;
    const rows = [];
    crdRows(schema, part, schema.required ?? [], rows);
    if (rows.length === 0) continue;
    lines.push(part === 'spec' ? '| field | type | default | limits | description |' : '| status field | type | | | description |');
    lines.push('|---|---|---|---|---|');
    for (const r of rows) {
      const name = `\`${r.path}\`${r.required ? ' (required)' : ''}`;
      const dflt = r.default === undefined ? '' : code(r.default);
      lines.push(`| ${cell(name)} | ${cell(r.type)} | ${cell(dflt)} | ${cell(r.limits)} | ${cell(r.description)} |`);
    }
    lines.push('');
  }
  const rules = [];
  validationRules(root, '', rules);
  if (rules.length > 0) {
    lines.push('Rules the API server enforces on change:', '');
    for (const r of rules) lines.push(`- \`${r.path.replace(/^\./, '')}\`: ${r.message}`);
    lines.push('');
  }
  return lines;
}

// ---------------------------------------------------------------------------
// chart values

function resolve(schema, definitions) {
  let s = schema;
  const seen = new Set();
  while (s && s.$ref) {
    if (seen.has(s.$ref)) throw new Error(`circular $ref ${s.$ref}`);
    seen.add(s.$ref);
    const name = s.$ref.replace('#/definitions/', '');
    const target = definitions[name];
    if (!target) throw new Error(`unknown $ref ${s.$ref}`);
    // A description beside the $ref wins over the definition's own.
    s = { ...target, ...(s.description ? { description: s.description } : {}) };
  }
  return s;
}

function valueAt(values, path) {
  let v = values;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !(key in v)) return undefined;
    v = v[key];
  }
  return v;
}

function defaultText(value) {
  if (value === undefined) return '';
  if (value === '') return '`""`';
  const text = JSON.stringify(value);
  return code(text.length > 120 ? `${text.slice(0, 117)}...` : text);
}

function valueRows(schema, definitions, values, path, rows) {
  const s = resolve(schema, definitions);
  for (const [name, raw] of Object.entries(s.properties ?? {})) {
    const field = resolve(raw, definitions);
    const fieldPath = [...path, name];
    const isSection = field.type === 'object' && field.properties && field.additionalProperties === false;
    if (isSection) {
      rows.push({ section: true, path: fieldPath, description: field.description ?? '' });
      valueRows(field, definitions, values, fieldPath, rows);
      continue;
    }
    rows.push({
      path: fieldPath,
      type: typeOf(field),
      default: defaultText(valueAt(values, fieldPath)),
      limits: constraints(field),
      description: field.description ?? '',
    });
  }
}

function valuesSection() {
  const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8'));
  const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
  const rows = [];
  valueRows(schema, schema.definitions ?? {}, values, [], rows);
  const lines = [];
  let open = false;
  const header = () => {
    lines.push('| key | type | default | limits | description |', '|---|---|---|---|---|');
    open = true;
  };
  for (const r of rows) {
    const key = r.path.join('.');
    if (r.section) {
      if (r.path.length === 1) {
        if (open) lines.push('');
        lines.push(`### \`${key}\``, '');
        if (r.description) lines.push(r.description, '');
        open = false;
      } else {
        if (!open) header();
        lines.push(`| **\`${cell(key)}\`** | object | | | ${cell(r.description)} |`);
      }
      continue;
    }
    if (r.path.length === 1) {
      if (open) lines.push('');
      open = false;
      lines.push(`### \`${key}\``, '');
      lines.push(`${r.description} Type: ${r.type}${r.default ? `; default ${r.default}` : ''}${r.limits ? `; ${r.limits}` : ''}.`, '');
      continue;
    }
    if (!open) header();
    lines.push(`| \`${cell(key)}\` | ${cell(r.type)} | ${cell(r.default)} | ${cell(r.limits)} | ${cell(r.description)} |`);
  }
  if (open) lines.push('');
  return lines;
}

// ---------------------------------------------------------------------------

export function render() {
  const crdFiles = readdirSync(CRD_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated by scripts/gen-config-reference.mjs from crds/*.yaml, charts/model-gateway/values.schema.json and values.yaml. Do not edit; run `node scripts/gen-config-reference.mjs`. -->',
    '',
    "Two kinds of configuration: the **custom resources** a company owner writes in the company's namespace (also the documents `gw serve -f` reads), and the **Helm values** the platform team sets when installing the chart. How to install and use them: [kubernetes.md](kubernetes.md).",
    '',
    '## Custom resources',
    '',
    ...crdFiles.flatMap((f) => crdSection(f)),
    '## Helm chart values',
    '',
    'Keys of `charts/model-gateway/values.yaml`, checked by `values.schema.json` (an unknown key is an error). Defaults are those of `values.yaml`.',
    '',
    ...valuesSection(),
    '## Environment-only settings',
    '',
    "Read by the `gw` commands from the environment alone (no flag, no resource field), each declared once in `src/config/env-settings.ts`; in the chart, set them through the containers' `env`. Flags and their environment variables: [cli.md](cli.md).",
    '',
    renderEnvironmentTable(),
    '',
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const text = render();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(OUT, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      process.stderr.write(`${relative(process.cwd(), OUT)} is out of date: run node scripts/gen-config-reference.mjs\n`);
      process.exit(1);
    }
    process.stdout.write(`${relative(process.cwd(), OUT)} is up to date\n`);
  } else {
    writeFileSync(OUT, text);
    process.stdout.write(`wrote ${relative(process.cwd(), OUT)}\n`);
  }
}
