import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AuthScheme, ProviderName } from '../../../src/models/providers.js';
import { PROVIDERS } from '../../../src/models/providers.js';
import type { GatewaySettingsSpec, ProviderCredentialSpec } from '../../../src/resources/types.js';
import { readCrds } from '../../../src/config/schemas.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * crds/ is the one schema source: the spec types are generated from it, and
 * the values the code keeps beside it (the provider table) must agree.
 */
describe('resource types generated from crds/', () => {
  it('src/resources/generated.ts is what scripts/gen-resource-types.mjs writes from crds/', () => {
    let failure = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-resource-types.mjs'), '--check'], { cwd: ROOT, stdio: 'pipe' });
    } catch (error) {
      failure = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(failure, 'regenerate with: node scripts/gen-resource-types.mjs').toBe('');
  });

  it('names the same providers and auth schemes as src/models/providers.ts (checked by the type checker)', () => {
    expectTypeOf<ProviderCredentialSpec['provider']>().toEqualTypeOf<ProviderName>();
    expectTypeOf<NonNullable<ProviderCredentialSpec['authScheme']>>().toEqualTypeOf<AuthScheme>();
    expectTypeOf<keyof NonNullable<GatewaySettingsSpec['models']>>().toEqualTypeOf<ProviderName>();
  });

  it('names the same providers as src/models/providers.ts at run time too', () => {
    type Node = { properties: Record<string, Node>; enum?: string[] };
    const schemaOf = (kind: string): Node => readCrds().find((c) => c.spec.names.kind === kind)?.spec.versions[0]?.schema.openAPIV3Schema as unknown as Node;
    const credentialSpec = schemaOf('ProviderCredential').properties.spec;
    expect(credentialSpec?.properties.provider?.enum).toEqual([...PROVIDERS]);
    expect(Object.keys(schemaOf('GatewaySettings').properties.spec?.properties.models?.properties ?? {})).toEqual([...PROVIDERS]);
  });
});
