import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { generateToken, hashToken } from '../auth/token.js';
import type { CommandDef } from '../config/commands.js';
import { parseCommandLine } from '../config/command-line.js';
import { apiMessage, apiStatus, MERGE_PATCH } from '../operator/kube-client.js';
import { CRD_VERSION, GROUP, PLURALS } from '../operator/kube-objects.js';
import { API_VERSION } from '../resources/types.js';
import { commandUsage } from './help.js';
import type { CliIo } from './io.js';

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

function kubeConfigFor(path: string | undefined, env: NodeJS.ProcessEnv): KubeConfig {
  const kc = new KubeConfig();
  const file = path ?? env.KUBECONFIG?.split(':')[0];
  if (file) kc.loadFromFile(file);
  else kc.loadFromDefault();
  return kc;
}

function contextNamespace(kc: KubeConfig): string | undefined {
  return kc.getContextObject(kc.getCurrentContext())?.namespace;
}

/**
 * `gw token create NAME -n NS` and `gw token revoke NAME -n NS` against a
 * cluster. create generates the token here, sends only its hash (the value
 * never reaches the API server) and prints the value once; revoke sets
 * spec.revoked. Rotation is create-new-then-revoke-old: a token's hash is
 * never changed in place.
 */
export async function runTokenCluster(command: CommandDef, argv: readonly string[], io: CliIo): Promise<number> {
  const sub = command.name === 'token create' ? 'create' : 'revoke';
  const args = parseCommandLine(command, argv, io.env);
  const name = args.positionals[0] as string;
  const problems: string[] = [];
  if (!NAME.test(name)) problems.push(`NAME must be a DNS-1123 name (lower case letters, digits, '-' and '.'), got "${name}"`);
  const displayName = args.declares('display-name') ? args.value('display-name') : undefined;
  if (displayName !== undefined && displayName.length > 200) problems.push('--display-name is at most 200 characters');
  if (problems.length > 0) {
    io.stderr.write(`gw token ${sub}: ${problems.join('; ')}\n${commandUsage(command)}`);
    return 2;
  }
  let kc: KubeConfig;
  try {
    kc = kubeConfigFor(args.value('kubeconfig'), io.env);
  } catch (error) {
    io.stderr.write(`gw token ${sub}: cannot load the kubeconfig: ${(error as Error).message}\n`);
    return 2;
  }
  const namespace = args.value('namespace') ?? contextNamespace(kc) ?? 'default';
  const custom = kc.makeApiClient(CustomObjectsApi);
  const target = { group: GROUP, version: CRD_VERSION, namespace, plural: PLURALS.GatewayToken };
  const where = `GatewayToken ${namespace}/${name}`;

  try {
    if (sub === 'create') {
      const token = generateToken();
      const hash = hashToken(token);
      await custom.createNamespacedCustomObject({
        ...target,
        fieldManager: 'gw-cli',
        fieldValidation: 'Strict',
        body: { apiVersion: API_VERSION, kind: 'GatewayToken', metadata: { name, namespace }, spec: { tokenHash: hash, ...(displayName !== undefined ? { displayName } : {}) } },
      });
      io.stdout.write(`token: ${token}\nhash:  ${hash}\n`);
      io.stderr.write(`${where} created. The token is shown once: store it now (the cluster keeps only its hash).\n`);
      return 0;
    }
    await custom.patchNamespacedCustomObject({ ...target, name, fieldManager: 'gw-cli', body: { spec: { revoked: true } } }, MERGE_PATCH);
    io.stdout.write(`${where} revoked: its next request fails with 401 no_session.\n`);
    return 0;
  } catch (error) {
    const status = apiStatus(error);
    if (sub === 'create' && status === 409) {
      io.stderr.write(`gw token create: ${where} already exists. A token is never rotated in place: create a new one and then revoke this one (gw token revoke ${name} -n ${namespace}).\n`);
    } else if (status === 404) {
      io.stderr.write(
        sub === 'revoke'
          ? `gw token revoke: no ${where}.\n`
          : `gw token create: the cluster does not serve GatewayTokens in namespace ${namespace}: is the namespace there, and are the CRDs installed (kubectl apply -f crds/)?\n`,
      );
    } else {
      io.stderr.write(`gw token ${sub}: ${apiMessage(error)}\n`);
    }
    return 1;
  }
}
