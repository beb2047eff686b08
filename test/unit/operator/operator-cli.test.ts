import { PassThrough } from 'node:stream';
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { OPERATOR_USAGE, runOperatorCommand } from '../../../src/cli/operator.js';
import { ConfigError } from '../../../src/config/load-resources.js';
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

describe('gw operator --help', () => {
  it.each([['--help'], ['-h']])('%s prints the options and exits 0 without needing any configuration', async (flag) => {
    const t = io();
    expect(await runOperatorCommand([flag], t.io)).toBe(0);
    expect(t.out()).toBe(OPERATOR_USAGE);
    expect(t.err()).toBe('');
  });

  it('lists only options the configuration accepts', () => {
    const options = [...new Set([...OPERATOR_USAGE.matchAll(/--([a-z-]+)/g)].map((m) => m[1] as string))].filter((o) => o !== 'help');
    expect(options.length).toBeGreaterThan(10);
    let problems: readonly string[] = [];
    try {
      readOperatorConfig(options.flatMap((o) => [`--${o}`, 'x']), {});
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.filter((p) => p.startsWith('unknown option'))).toEqual([]);
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
    expect(kubeErrorLine(new ApiException(409, 'x', JSON.stringify({ message: 'the object has been modified', reason: 'Conflict' }), {}))).toBe('Kubernetes API error 409 Conflict: the object has been modified');
    expect(kubeErrorLine(new Error('connect ECONNREFUSED 127.0.0.1:6443\n    at stack'))).toBe('connect ECONNREFUSED 127.0.0.1:6443');
  });
});
