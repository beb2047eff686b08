import { describe, expect, it } from 'vitest';
import { ENV_SETTINGS, envNumber, envText } from '../../../src/config/env-settings.js';
import { DEFAULT_CONNECTION_LIMITS, readServeConfig } from '../../../src/config/serve-config.js';
import { DEFAULT_PIPELINE_CONFIG } from '../../../src/pipeline/config.js';

describe('environment-only settings', () => {
  it('declares each variable once, with a help text and a check', () => {
    const names = ENV_SETTINGS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const s of ENV_SETTINGS) {
      expect(s.help.length, s.name).toBeGreaterThan(10);
      if (s.check === 'positive' || s.check === 'integer') expect(typeof s.default, s.name).toBe('number');
    }
  });

  it('reads a number by its declaration: default when unset, the value when valid, a problem otherwise', () => {
    const problems: string[] = [];
    expect(envNumber({}, 'GW_LEASE_TTL_MS', problems)).toBe(DEFAULT_PIPELINE_CONFIG.leaseTtlMs);
    expect(envNumber({ GW_LEASE_TTL_MS: '1500' }, 'GW_LEASE_TTL_MS', problems)).toBe(1500);
    expect(problems).toEqual([]);
    envNumber({ GW_LEASE_TTL_MS: '' }, 'GW_LEASE_TTL_MS', problems);
    envNumber({ GW_USAGE_MEMORY_MB: '0.5' }, 'GW_USAGE_MEMORY_MB', problems);
    envNumber({ GW_USAGE_EXPORT_LEASE_MS: '299' }, 'GW_USAGE_EXPORT_LEASE_MS', problems);
    envNumber({ GW_USAGE_BACKLOG_MAX: '1.5' }, 'GW_USAGE_BACKLOG_MAX', problems);
    expect(problems).toEqual([
      'GW_LEASE_TTL_MS must be a positive number, got ""',
      'GW_USAGE_MEMORY_MB must be a number ≥ 1, got "0.5"',
      'GW_USAGE_EXPORT_LEASE_MS must be an integer ≥ 300, got "299"',
      'GW_USAGE_BACKLOG_MAX must be an integer ≥ 1, got "1.5"',
    ]);
    expect(envText({}, 'GW_LOG_LEVEL')).toBe('info');
    expect(envText({}, 'GW_ADMIN_TOKEN')).toBeUndefined();
  });

  it('is where the data plane takes its defaults from', () => {
    const config = readServeConfig(['-f', 'x.yaml'], {});
    expect(config.connections).toEqual(DEFAULT_CONNECTION_LIMITS);
    for (const [field, name] of [
      ['headersTimeoutMs', 'GW_HEADERS_TIMEOUT_MS'],
      ['keepAliveTimeoutMs', 'GW_KEEPALIVE_TIMEOUT_MS'],
      ['maxConnectionsPerAddress', 'GW_MAX_CONNECTIONS_PER_ADDRESS'],
    ] as const) {
      expect(config.connections[field], name).toBe(ENV_SETTINGS.find((s) => s.name === name)?.default);
    }
    expect(config.pipeline.slotTtlMs).toBe(DEFAULT_PIPELINE_CONFIG.slotTtlMs);
  });
});
