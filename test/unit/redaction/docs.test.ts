import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../src/redaction/index.js';
import { renderServiceList, serviceOf } from '../../../src/redaction/rules/service-list.js';

const BEGIN = '<!-- generated: supported services (scripts/gen-redaction-doc.mjs) -->';
const END = '<!-- end of generated list -->';

describe('docs/redaction.md', () => {
  it('lists the supported services as the rules define them (regenerate with scripts/gen-redaction-doc.mjs)', () => {
    const doc = readFileSync(new URL('../../../docs/redaction.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf(BEGIN) + BEGIN.length, doc.indexOf(END));
    expect(section.trim()).toBe(renderServiceList(RULES).trim());
  });

  it('names a service for at least 250 services', () => {
    const services = new Set(RULES.map(serviceOf).filter((s) => s !== null));
    expect(services.size).toBeGreaterThanOrEqual(250);
  });
});
