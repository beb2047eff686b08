import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  readonly dir: string;
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly caPem: string;
}

/** A throwaway CA and a serving certificate for 127.0.0.1 / localhost, made with openssl. */
export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'gw-certs-'));
  const at = (f: string): string => join(dir, f);
  const run = (...args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'pipe' });
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.crt'), '-days', '2', '-subj', '/CN=gw-test-ca');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  run('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.crt'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.crt'), '-days', '2', '-extfile', at('san.ext'));
  return { dir, caFile: at('ca.crt'), certFile: at('server.crt'), keyFile: at('server.key'), caPem: readFileSync(at('ca.crt'), 'utf8') };
}
