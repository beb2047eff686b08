import { generateToken, hashToken, isWellFormedToken } from '../auth/token.js';
import { TOKEN_HASH_COMMAND, TOKEN_NEW_COMMAND } from '../config/commands.js';
import { parseCommandLine } from '../config/command-line.js';
import type { CliIo } from './io.js';
import { readAll } from './io.js';

/** `gw token new`: a fresh token and its hash; create and revoke (against a cluster) live in token-cluster.ts. */
export function runTokenNew(argv: readonly string[], io: CliIo): number {
  parseCommandLine(TOKEN_NEW_COMMAND, argv, io.env);
  const token = generateToken();
  io.stdout.write(`token: ${token}\nhash:  ${hashToken(token)}\n`);
  io.stderr.write('The token is shown once: store it now. Put only the hash in a GatewayToken (spec.tokenHash).\n');
  return 0;
}

/** `gw token hash`: the hash of the token on stdin. */
export async function runTokenHash(argv: readonly string[], io: CliIo): Promise<number> {
  parseCommandLine(TOKEN_HASH_COMMAND, argv, io.env);
  const token = (await readAll(io.stdin)).toString('utf8').trim();
  if (!isWellFormedToken(token)) {
    io.stderr.write('gw: stdin does not hold a well-formed gwct_ token (wrong prefix, length or checksum)\n');
    return 2;
  }
  io.stdout.write(`${hashToken(token)}\n`);
  return 0;
}
