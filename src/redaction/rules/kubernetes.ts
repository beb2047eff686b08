import { decodeBase64, notPlaceholder } from '../filters.js';
import { prefixedToken, Specificity, type Rule } from '../rule.js';

// Line breaks and tabs, real or escaped once more (YAML inside a JSON string
// inside the request body).
const NL = '(?:\\r?\\n|\\\\r\\\\n|\\\\n)';
const SP = '(?:[ \\t]|\\\\t)';
// One entry of a Secret's data map: indented `name: value` with an optional
// quote, or a block scalar (`|`/`>`) whose value sits on the next line.
// A value may also end where the text embedding the YAML ends its string.
const Q = `(?:\\\\?["'])?`;
const ENTRY = `${SP}{1,16}[A-Za-z0-9_.-]{1,253}:${SP}{0,4}(?:[|>][-+]?${SP}{0,4}${NL}${SP}{1,16})?${Q}[A-Za-z0-9+/=]{4,16384}${Q}${SP}{0,8}(?:${NL}|$|(?=\\\\?["']))`;

export const kubernetesRules: readonly Rule[] = [
  {
    id: 'kubernetes-secret-data',
    description: 'The data: entries (names and base64 values) of a Kubernetes Secret manifest.',
    keywords: ['kind: secret', 'kind: "secret"', "kind: 'secret'", 'kind: \\"secret'],
    pattern: new RegExp(`(?:^|\\n|\\\\n)${SP}{0,8}data:${SP}{0,8}${NL}((?:${SP}{0,16}#(?:[^\\r\\n\\\\]|\\\\[^nr]){0,200}${NL}){0,4}(?:${ENTRY}){1,64})`, 'i'),
    window: { before: 2000, after: 2000 },
    specificity: Specificity.structured,
    // At least one value must be substantial base64, not a bare word.
    accept: (block) => {
      for (const m of block.matchAll(/(?::[ \t]*["']?|(?:\n|\\n)(?:[ \t]|\\t)+)([A-Za-z0-9+/]{12,}={0,2})["']?[ \t]*(?:\r?\n|\\n|$)/g)) {
        const value = m[1]!;
        if (value.length % 4 === 0 && decodeBase64(value) !== null) return true;
      }
      return false;
    },
  },
  // The data key of Kubernetes' registry-credential Secret types
  // (kubernetes.io/dockerconfigjson, kubernetes.io/dockercfg): its value is
  // base64 of a Docker config holding registry passwords, wherever the
  // manifest's `kind` line is.
  {
    id: 'kubernetes-dockerconfig-data',
    description: 'The base64 value of a .dockerconfigjson or .dockercfg data key (a registry-credential Secret).',
    keywords: ['.dockerconfigjson', '.dockercfg'],
    pattern: /\.docker(?:configjson|cfg)\\?["']?[ \t]{0,4}:[ \t]{0,4}\\?["']?([A-Za-z0-9+/]{8,16384}={0,2})(?![A-Za-z0-9+/=])/,
    specificity: Specificity.structured,
    accept: (value) => value.length % 4 === 0 && decodeBase64(value) !== null && notPlaceholder(value),
  },
  {
    id: 'kubeconfig-client-key',
    description: 'Base64 client key in a kubeconfig (client-key-data:).',
    keywords: ['client-key-data:'],
    pattern: /client-key-data:[ \t]{0,4}["']?([A-Za-z0-9+/]{40,16384}={0,2})/,
    entropy: 4,
    specificity: Specificity.keyBlock,
  },
  prefixedToken({
    id: 'openshift-token',
    description: 'OpenShift OAuth access token: sha256~ and 43 URL-safe characters.',
    keywords: ['sha256~'],
    token: 'sha256~[A-Za-z0-9_-]{43}',
    entropy: 3.5,
  }),
];
