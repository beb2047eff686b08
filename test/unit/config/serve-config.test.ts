import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/config/command-line.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { readServeConfig } from '../../../src/config/serve-config.js';
import { DEFAULT_PIPELINE_CONFIG } from '../../../src/pipeline/config.js';

const KEY = Buffer.alloc(32, 7);

function problemsOf(argv: string[], env: NodeJS.ProcessEnv = {}): readonly string[] {
  try {
    readServeConfig(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('no ConfigError');
}

describe('readServeConfig', () => {
  it('needs only the file and fills in the defaults', () => {
    expect(readServeConfig(['-f', 'gateway.yaml'], {})).toMatchObject({
      file: 'gateway.yaml',
      host: '127.0.0.1',
      port: 8080,
      socketPath: null,
      adminHost: '127.0.0.1',
      adminPort: 9090,
      adminToken: null,
      redisUrl: null,
      encryptionKey: null,
      pipeline: DEFAULT_PIPELINE_CONFIG,
      shutdownGraceMs: 30_000,
      upstreamHeadersTimeoutMs: 600_000,
      upstreamBodyTimeoutMs: 600_000,
      logLevel: 'info',
    });
  });

  it('takes the default port from the command (gw extproc listens elsewhere)', () => {
    expect(readServeConfig(['-f', 'gateway.yaml'], {}, 'extproc').port).toBe(9002);
    expect(readServeConfig(['-f', 'gateway.yaml'], { GW_PORT: '1' }, 'extproc').port).toBe(1);
  });

  it('refuses what the command line of the command does not define, before any value is checked', () => {
    expect(() => readServeConfig(['-f', 'gateway.yaml', '--bogus-flag', '1'], {})).toThrow(UsageError);
    expect(() => readServeConfig(['-f', 'gateway.yaml', '--redis'], {})).toThrow('--redis needs a value');
    // The Unix socket is gw extproc's; gw serve listens on TCP only.
    expect(() => readServeConfig(['-f', 'gateway.yaml', '--socket', '/tmp/s'], {})).toThrow('unknown flag --socket');
    expect(readServeConfig(['-f', 'gateway.yaml', '--socket', '/tmp/s'], {}, 'extproc').socketPath).toBe('/tmp/s');
  });

  it("takes gw extproc's gRPC transport from --grpc-transport or GW_GRPC_TRANSPORT, grpc-js by default", () => {
    expect(readServeConfig(['-f', 'gateway.yaml'], {}, 'extproc').grpcTransport).toBe('grpc-js');
    expect(readServeConfig(['-f', 'gateway.yaml', '--grpc-transport', 'http2'], {}, 'extproc').grpcTransport).toBe('http2');
    expect(readServeConfig(['-f', 'gateway.yaml'], { GW_GRPC_TRANSPORT: 'http2' }, 'extproc').grpcTransport).toBe('http2');
    expect(() => readServeConfig(['-f', 'gateway.yaml', '--grpc-transport', 'h2'], {}, 'extproc')).toThrow(ConfigError);
    try {
      readServeConfig(['-f', 'gateway.yaml', '--grpc-transport', 'h2'], {}, 'extproc');
    } catch (error) {
      expect((error as ConfigError).problems).toContain('--grpc-transport must be "grpc-js" or "http2", got "h2"');
    }
    expect(() => readServeConfig(['-f', 'gateway.yaml', '--grpc-transport', 'http2'], {})).toThrow('unknown flag --grpc-transport');
  });

  it('returns a frozen result, its pipeline settings included', () => {
    const config = readServeConfig(['--file=gateway.yaml'], {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.pipeline)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reads options from argv and the environment, argv first', () => {
    const config = readServeConfig(['--file', 'a.yaml', '--port', '18080', '--prefix=/api', '--max-body-mb', '1.5', '--redis', 'redis://127.0.0.1:6379'], {
      GW_CONFIG: 'b.yaml',
      GW_PORT: '9999',
      GW_HOST: '0.0.0.0',
      GW_ADMIN_PORT: '0',
      GW_ADMIN_TOKEN: 'a-long-enough-admin-token',
      GW_LEASE_TTL_MS: '5000',
      GW_SLOT_TTL_MS: '6000',
      GW_SHUTDOWN_GRACE_MS: '100',
      GW_LOG_LEVEL: 'debug',
      GW_ENCRYPTION_KEY: KEY.toString('base64'),
    });
    expect(config).toMatchObject({
      file: 'a.yaml',
      port: 18080,
      host: '0.0.0.0',
      adminPort: 0,
      adminToken: 'a-long-enough-admin-token',
      redisUrl: 'redis://127.0.0.1:6379',
      encryptionKey: KEY,
      shutdownGraceMs: 100,
      logLevel: 'debug',
      pipeline: { ...DEFAULT_PIPELINE_CONFIG, pathPrefix: '/api', maxBodyBytes: 1_572_864, leaseTtlMs: 5000, slotTtlMs: 6000 },
    });
    expect(readServeConfig([], { GW_CONFIG: 'b.yaml', GW_PATH_PREFIX: '/gw/anthropic' })).toMatchObject({ file: 'b.yaml', pipeline: { pathPrefix: '/gw/anthropic' } });
  });

  it('reads the admin token from a file, trimmed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-serve-config-'));
    const file = join(dir, 'admin-token');
    writeFileSync(file, 'from-a-file-0123456789\n');
    expect(readServeConfig(['-f', 'x.yaml', '--admin-token-file', file], { GW_ADMIN_TOKEN: 'ignored-because-file-wins' }).adminToken).toBe('from-a-file-0123456789');
  });

  it('needs a file without Redis, and none with it (then the operator writes and the process only reads)', () => {
    expect(problemsOf([], {})).toEqual([expect.stringMatching(/^-f FILE \(or GW_CONFIG\) is required without --redis/)]);
    const key = Buffer.alloc(32, 7).toString('base64');
    const config = readServeConfig(['--redis', 'redis://127.0.0.1:6379'], { GW_ENCRYPTION_KEY: key });
    expect(config.file).toBeNull();
    expect(readServeConfig([], { GW_REDIS_URL: 'rediss://r:6380', GW_ENCRYPTION_KEY: key, GW_REDIS_PASSWORD: 'p w/#' }).redisPassword).toBe('p w/#');
  });

  it('reports every problem together', () => {
    const problems = problemsOf(
      ['--prefix', 'api/', '--port', 'http', '--admin-port', '70000', '--redis', 'http://localhost:6379', '--max-body-mb', '0', '--admin-token-file', '/nonexistent/gw-admin-token'],
      {
        GW_LEASE_TTL_MS: '-1',
        GW_SLOT_TTL_MS: 'soon',
        GW_UPSTREAM_HEADERS_TIMEOUT_MS: '0',
      },
    );
    const expected = [
      /^--prefix must start with \/ and not end with \/, got "api\/"$/,
      /^--admin-token-file \/nonexistent\/gw-admin-token: /,
      /^--redis: the Redis URL must start with redis:\/\/, rediss:\/\/, redis-sentinel:\/\/ or rediss-sentinel:\/\/$/,
      /^--redis needs an encryption key for provider secrets/,
      /^--max-body-mb must be a positive number, got "0"$/,
      /^--port must be a port number \(0-65535\), got "http"$/,
      /^--admin-port must be a port number \(0-65535\), got "70000"$/,
      /^GW_LEASE_TTL_MS must be a positive number, got "-1"$/,
      /^GW_SLOT_TTL_MS must be a positive number, got "soon"$/,
      /^GW_UPSTREAM_HEADERS_TIMEOUT_MS must be a positive number, got "0"$/,
    ];
    for (const pattern of expected)
      expect(
        problems.some((p) => pattern.test(p)),
        `${pattern} in\n${problems.join('\n')}`,
      ).toBe(true);
    expect(problems).toHaveLength(expected.length);
  });

  it.each([
    ['a short admin token', { GW_ADMIN_TOKEN: 'short' }, /^the admin token must be at least 16 characters$/],
    ['a prefix ending in a slash', { GW_PATH_PREFIX: '/api/' }, /^--prefix must start with \//],
    ['a prefix with a query', { GW_PATH_PREFIX: '/api?x' }, /^--prefix must start with \//],
    ['a fractional port', { GW_PORT: '80.5' }, /^--port must be a port number/],
    ['an encryption key of the wrong size', { GW_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }, /^the encryption key .* must be base64 of 32 bytes/],
    ['Redis without an encryption key', { GW_REDIS_URL: 'redis://127.0.0.1:6379' }, /^--redis needs an encryption key/],
  ])('refuses %s', (_, env, pattern) => {
    const problems = problemsOf(['-f', 'x.yaml'], env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(pattern);
  });

  it('accepts rediss:// and port 0', () => {
    expect(readServeConfig(['-f', 'x.yaml', '--redis', 'rediss://cache:6380', '--port', '0'], { GW_ENCRYPTION_KEY: KEY.toString('base64') })).toMatchObject({
      redisUrl: 'rediss://cache:6380',
      port: 0,
    });
  });
});
