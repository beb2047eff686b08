import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { readOperatorConfig } from '../../../src/config/operator-config.js';

const dir = mkdtempSync(join(tmpdir(), 'gw-operator-config-'));
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(kubeconfig, '{}');
const keyFile = join(dir, 'key');
const KEY = Buffer.alloc(32, 9).toString('base64');
writeFileSync(keyFile, `${KEY}\n`);
const tokenFile = join(dir, 'sa-token');
writeFileSync(tokenFile, 'x');
const where = { hostname: 'pod-7', pid: 42, inClusterNamespaceFile: join(dir, 'no-namespace-file'), inClusterTokenFile: join(dir, 'no-token-file') };

function problemsOf(argv: string[], env: NodeJS.ProcessEnv = {}, at = where): readonly string[] {
  try {
    readOperatorConfig(argv, env, at);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('no ConfigError');
}

describe('readOperatorConfig', () => {
  it('needs Redis, a key and a cluster, and fills in every default', () => {
    const config = readOperatorConfig(['--redis', 'redis://127.0.0.1:6379', '--kubeconfig', kubeconfig], { GW_ENCRYPTION_KEY: KEY }, where);
    expect(config).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      redisTlsCa: null,
      redisPassword: null,
      encryptionKey: Buffer.alloc(32, 9),
      kube: { kind: 'file', path: kubeconfig },
      namespace: null,
      leaseName: 'gw-operator',
      leaseNamespace: 'default',
      identity: 'pod-7_42',
      leaseDurationSeconds: 15,
      resyncSeconds: 60,
      adminHost: '0.0.0.0',
      adminPort: 9091,
      workers: 4,
      logLevel: 'info',
      // OpenTelemetry stays off without an endpoint.
      otel: { traces: null, metrics: null, serviceName: 'gw-operator', resourceAttributes: {}, sampler: 'parentbased_always_on', samplerRatio: 1, metricIntervalMs: 60_000 },
      // No PostgreSQL: no usage exporter in the operator.
      usage: { postgresUrl: null, postgresPassword: null, retentionDays: 0, backlogMax: 1_000_000, memoryBytes: 64 * 1024 * 1024, exportLeaseMs: 15_000 },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('--postgres runs the usage exporter in the operator; a bad URL is reported with the rest', () => {
    const config = readOperatorConfig(
      ['--redis', 'redis://127.0.0.1:6379', '--kubeconfig', kubeconfig, '--postgres', 'postgres://gw@db:5432/gw?sslmode=verify-full', '--usage-retention-days', '400'],
      { GW_ENCRYPTION_KEY: KEY, PGPASSWORD: 'pw' },
      where,
    );
    expect(config.usage).toMatchObject({ postgresUrl: 'postgres://gw@db:5432/gw?sslmode=verify-full', postgresPassword: 'pw', retentionDays: 400 });
    expect(problemsOf(['--redis', 'redis://x', '--kubeconfig', kubeconfig, '--postgres', 'mysql://db'], { GW_ENCRYPTION_KEY: KEY })).toContain('--postgres must be a postgres:// or postgresql:// URL');
  });

  it('reads every option, the key from a file, and in-cluster config inside a Pod', () => {
    const config = readOperatorConfig(
      [
        '--redis',
        'rediss://r:6380',
        '--encryption-key-file',
        keyFile,
        '-n',
        'acme',
        '--lease-name',
        'gw',
        '--lease-namespace',
        'gw-system',
        '--identity',
        'me',
        '--resync-seconds',
        '5',
        '--admin-port',
        '0',
        '--lease-duration-seconds',
        '4',
        '--workers',
        '2',
      ],
      { KUBERNETES_SERVICE_HOST: '10.0.0.1' },
      { ...where, inClusterTokenFile: tokenFile },
    );
    expect(config).toMatchObject({
      redisUrl: 'rediss://r:6380',
      kube: { kind: 'in-cluster' },
      namespace: 'acme',
      leaseName: 'gw',
      leaseNamespace: 'gw-system',
      identity: 'me',
      resyncSeconds: 5,
      adminPort: 0,
      leaseDurationSeconds: 4,
      workers: 2,
    });
    expect(config.encryptionKey.equals(Buffer.alloc(32, 9))).toBe(true);
  });

  it('takes a Redis password apart from the URL, inline or from a mounted file (the file wins)', () => {
    const passwordFile = join(dir, 'redis-password');
    writeFileSync(passwordFile, 'p@ss:word/with#chars\n');
    const base = ['--redis', 'redis://redis:6379', '--kubeconfig', kubeconfig];
    expect(readOperatorConfig(base, { GW_ENCRYPTION_KEY: KEY, GW_REDIS_PASSWORD: 'inline' }, where).redisPassword).toBe('inline');
    expect(readOperatorConfig([...base, '--redis-password-file', passwordFile], { GW_ENCRYPTION_KEY: KEY, GW_REDIS_PASSWORD: 'inline' }, where).redisPassword).toBe('p@ss:word/with#chars');
  });

  it('puts the Lease in the Pod namespace, else the watched namespace', () => {
    const base = ['--redis', 'redis://r', '--kubeconfig', kubeconfig];
    expect(readOperatorConfig(base, { GW_ENCRYPTION_KEY: KEY, POD_NAMESPACE: 'gw-system' }, where).leaseNamespace).toBe('gw-system');
    expect(readOperatorConfig([...base, '--namespace', 'acme'], { GW_ENCRYPTION_KEY: KEY }, where).leaseNamespace).toBe('acme');
  });

  it('reports every problem at once', () => {
    const problems = problemsOf(['--redis', 'http://nope', '--namespace', 'Bad_NS', '--resync-seconds', '0', '--admin-port', '70000', '--lease-duration-seconds', 'x'], {
      GW_ENCRYPTION_KEY: 'c2hvcnQ=',
    });
    expect(problems).toEqual([
      '--redis: the Redis URL must start with redis://, rediss://, redis-sentinel:// or rediss-sentinel://',
      'the encryption key (GW_ENCRYPTION_KEY or --encryption-key-file) must be base64 of 32 bytes, e.g. `openssl rand -base64 32`',
      'no cluster to talk to: give --kubeconfig FILE (or KUBECONFIG), or run in a Pod with a service account',
      '--namespace must be a namespace name, got "Bad_NS"',
      '--lease-namespace must be a namespace name, got "Bad_NS"',
      '--lease-duration-seconds must be an integer from 2 to 300, got "x"',
      '--resync-seconds must be an integer from 1 to 86400, got "0"',
      '--admin-port must be an integer from 0 to 65535, got "70000"',
    ]);
  });

  it('says what is missing when nothing is given', () => {
    expect(problemsOf([], {})).toEqual([
      '--redis URL (or GW_REDIS_URL) is required: the state the data planes read',
      'an encryption key for provider secrets is required: GW_ENCRYPTION_KEY or --encryption-key-file (base64 of 32 bytes, the one the data planes use)',
      'no cluster to talk to: give --kubeconfig FILE (or KUBECONFIG), or run in a Pod with a service account',
    ]);
    expect(problemsOf(['--redis', 'redis://r', '--kubeconfig', join(dir, 'missing')], { GW_ENCRYPTION_KEY: KEY })).toEqual([`--kubeconfig ${join(dir, 'missing')}: no such file`]);
  });
});
