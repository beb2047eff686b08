/**
 * The envoy-validate tool (test/go/cmd/envoy-validate) accepts a realistic
 * gateway bootstrap and rejects each kind of mistake Envoy itself would
 * refuse at start-up. `gw envoy-config` output will be checked with it.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureGoTool, GO_BUILD_TIMEOUT_MS, runGoTool } from '../../support/go-tools.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../fixtures/envoy/${name}`, import.meta.url));

beforeAll(async () => {
  await ensureGoTool('envoy-validate');
}, GO_BUILD_TIMEOUT_MS);

describe('envoy-validate', () => {
  it('accepts the reference gateway bootstrap', async () => {
    const result = await runGoTool('envoy-validate', [fixture('good-bootstrap.yaml')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('good-bootstrap.yaml: ok');
  });

  it.each([
    ['bad-unknown-field.yaml', 'unknown field "stat_prefx"'],
    ['bad-wrong-type.yaml', 'invalid value for uint32 field portValue'],
    // Only reachable by unpacking the typed_config Any and validating it.
    ['bad-missing-required.yaml', 'HttpConnectionManager.StatPrefix: value length must be at least 1'],
    ['bad-unknown-type.yaml', 'unable to resolve "type.googleapis.com/envoy.extensions.access_loggers.nowhere.v3.NowhereLog"'],
  ])('rejects %s', async (name, reason) => {
    const result = await runGoTool('envoy-validate', [fixture(name)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(reason);
  });

  it('fails the whole run when any one of several files is bad', async () => {
    const result = await runGoTool('envoy-validate', [fixture('good-bootstrap.yaml'), fixture('bad-wrong-type.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('good-bootstrap.yaml: ok');
    expect(result.stderr).toContain('bad-wrong-type.yaml');
  });
});
