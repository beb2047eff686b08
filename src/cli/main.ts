#!/usr/bin/env node
import { runAdminQuery } from './admin-client.js';
import { runEnvoyConfig } from './envoy-config.js';
import { runRedact } from './redact.js';
import type { CliIo } from './io.js';
import { runExtProcCommand, runServeCommand } from './serve.js';
import { runTokenLocal } from './token.js';

const USAGE = `gw: the model gateway

  gw serve -f FILE [--port N] [--host H] [--prefix /api] [--admin-port N] [--admin-host H] [--redis URL] [--postgres URL]
           [--admin-tokens-file F] [--admin-auth token|kubernetes] [--kubeconfig F]
  gw extproc -f FILE [--port N --host H | --socket PATH] [--admin-port N] [--redis URL] [--postgres URL]
  gw envoy-config [--values FILE] [--processor-socket PATH | --processor-address H:P] [--provider URL]... [--out FILE]
  gw token new                 print a fresh gwct_ token and its sha256: hash
  gw token hash                print the hash of a token read from stdin
  gw token create NAME -n NS [--display-name X] [--kubeconfig F]   make a GatewayToken in a cluster, print its token once
  gw token revoke NAME -n NS [--kubeconfig F]                      revoke a GatewayToken in a cluster
  gw operator --redis URL [--kubeconfig F] [--namespace NS] [--lease-name N] [--lease-namespace NS]
              [--identity ID] [--resync-seconds N] [--admin-port N] [--postgres URL]   (GW_ENCRYPTION_KEY or --encryption-key-file)
  gw redact [--text] [--json-report] [--budget-ms N] < body   show what secret scanning would send
  gw export-usage --redis URL --postgres URL [--admin-port N] [--usage-retention-days N]   move usage records to PostgreSQL
  gw logs  [--company C] [--since T] [--until T] [--address A] [--model M] [--order time|cost] [--limit N]
           [--json | --csv] [--admin-url URL | --postgres URL]
  gw usage [--company C] [--by address|model|provider|repo|application|end_user] [--period day|week|month]
           [--since T] [--until T] [--json | --csv] [--admin-url URL | --postgres URL]
  (serve, extproc, logs and usage take --postgres URL or GW_POSTGRES_URL; password in the URL or PGPASSWORD; TLS by sslmode)
`;

async function main(argv: readonly string[]): Promise<number> {
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServeCommand(rest, io);
    case 'extproc':
      return runExtProcCommand(rest, io);
    case 'envoy-config':
      return runEnvoyConfig(rest, io);
    case 'redact':
      return runRedact(rest, io);
    case 'token': {
      const [sub, ...tokenArgs] = rest;
      if (sub === 'create' || sub === 'revoke') {
        // Loaded on demand: the Kubernetes client is heavy and only these commands need it.
        const { runTokenCluster } = await import('./token-cluster.js');
        return runTokenCluster(sub, tokenArgs, io);
      }
      const code = await runTokenLocal(sub ?? '', io);
      if (code !== -1) return code;
      break;
    }
    case 'operator': {
      const { runOperatorCommand } = await import('./operator.js');
      return runOperatorCommand(rest, io);
    }
    case 'export-usage': {
      const { runExportUsageCommand } = await import('./export-usage.js');
      return runExportUsageCommand(rest, io);
    }
    case 'logs':
      return runAdminQuery('logs', rest, io);
    case 'usage':
      return runAdminQuery('usage', rest, io);
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(USAGE);
      return 0;
  }
  io.stderr.write(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`gw: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
