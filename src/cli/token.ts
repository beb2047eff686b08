import { generateToken, hashToken, isWellFormedToken } from '../auth/token.js';
import type { CliIo } from './io.js';
import { readAll } from './io.js';

/** `gw token new` and `gw token hash`; create and revoke (against a cluster) live in the operator's CLI. */
export async function runTokenLocal(sub: string, io: CliIo): Promise<number> {
  if (sub === 'new') {
    const token = generateToken();
    io.stdout.write(`token: ${token}\nhash:  ${hashToken(token)}\n`);
    io.stderr.write('The token is shown once: store it now. Put only the hash in a GatewayToken (spec.tokenHash).\n');
    return 0;
  }
  if (sub === 'hash') {
    const token = (await readAll(io.stdin)).toString('utf8').trim();
    if (!isWellFormedToken(token)) {
      io.stderr.write('gw: stdin does not hold a well-formed gwct_ token (wrong prefix, length or checksum)\n');
      return 2;
    }
    io.stdout.write(`${hashToken(token)}\n`);
    return 0;
  }
  return -1;
}
