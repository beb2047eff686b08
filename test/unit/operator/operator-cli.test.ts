import { PassThrough } from 'node:stream';
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../../src/cli/operator.js';
import { OPERATOR_COMMAND } from '../../../src/config/commands.js';
import { UsageError } from '../../../src/config/command-line.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { readOperatorConfig } from '../../../src/config/operator-config.js';
import { kubeErrorLine } from '../../../src/operator/kube-client.js';

function io(): { io: Parameters<typeof runOperatorCommand>[1]; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr, env: {} }, out: () => out, err: () => err };
}

describe('gw operator command line', () => {
  it('takes every option its definition lists (none is refused as unknown)', () => {
    const argv = OPERATOR_COMMAND.options.flatMap((o) => (o.type === 'boolean' ? [`--${o.name}`] : [`--${o.name}`, 'x']));
    expect(OPERATOR_COMMAND.options.length).toBeGreaterThan(10);
    let error: unknown;
    try {
      readOperatorConfig(argv, {});
    } catch (e) {
      error = e;
    }
    // The values are nonsense, so the configuration refuses them, but as values, not as flags.
    expect(error).toBeInstanceOf(ConfigError);
  });

  it('refuses an unknown flag or a stray argument before looking at any value', () => {
    expect(() => readOperatorConfig(['--redis', 'redis://r', '--bogus', '1'], {})).toThrow(UsageError);
    expect(() => readOperatorConfig(['--redis', 'redis://r', 'extra'], {})).toThrow('unexpected argument "extra"');
  });

  it('runOperatorCommand leaves a usage error to the command line to report with the usage', async () => {
    const t = io();
    await expect(runOperatorCommand(['--bogus'], t.io)).rejects.toThrow('unknown flag --bogus');
  });
});

describe('kubeErrorLine', () => {
  const forbidden = {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: 'configmaps is forbidden: User "system:serviceaccount:gw:gw-operator" cannot list resource "configmaps" in API group "" in the namespace "gw"',
    reason: 'Forbidden',
    details: { kind: 'configmaps' },
    code: 403,
  };

  it('says in one line which permission is missing and where, not the raw body and headers', () => {
    const line = kubeErrorLine(new ApiException(403, 'Unknown API Status Code!', forbidden, { 'audit-id': 'x', 'content-type': 'application/json' }));
    expect(line).not.toContain('\n');
    expect(line).toContain('cannot list resource "configmaps"');
    expect(line).toContain('in the namespace "gw"');
    expect(line).toContain('RBAC');
    expect(line).not.toContain('audit-id');
  });

  it('keeps other API errors to their status and message, and any error to its first line', () => {
    expect(kubeErrorLine(new ApiException(409, 'x', JSON.stringify({ message: 'the object has been modified', reason: 'Conflict' }), {}))).toBe(
      'Kubernetes API error 409 Conflict: the object has been modified',
    );
    expect(kubeErrorLine(new Error('connect ECONNREFUSED 127.0.0.1:6443\n    at stack'))).toBe('connect ECONNREFUSED 127.0.0.1:6443');
  });
});
