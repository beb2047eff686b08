// Credentials found by the shape they come in rather than by a vendor
// prefix: XML elements of CI servers' configuration, single-dash flags of
// Windows, Java and Azure tools, a service's name assigned a bare value,
// credential constructors in code, and the few self-hosted and cloud token
// formats that carry a structure instead of a prefix.
import { isCodeReference, looksLikeTemplate } from '../filters.js';
import type { Precheck } from '../prechecks.js';
import { Specificity, withPrefixEvidence, type MatchContext, type Rule } from '../rule.js';
import { keyLikeValue, passwordLikeValue } from './generic.js';

const OPEN = '(?:\\\\{0,3}["\'])?';
const WORD = '[^\\x00-\\x20"\'`\\\\]{6,256}';

const isAlnum = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

// Most hits of `token`, `secret` and `password` are words in code or prose:
// only one inside a dash option (`-vaultToken`, `-Dsonar.login`) can match,
// so the option's dash is looked for behind the keyword first.
const singleDashBefore: Precheck = (text, at) => {
  if (text.charCodeAt(at) === 32) return true; // the ` -p ` keyword
  let i = at - 1;
  const stop = Math.max(0, at - 48);
  while (i >= stop && (isAlnum(text.charCodeAt(i)) || text.charCodeAt(i) === 46)) i--;
  if (i < 0 || text.charCodeAt(i) !== 45) return false;
  if (i === 0) return true;
  const b = text.charCodeAt(i - 1);
  return b === 32 || b === 9 || b === 34 || b === 39 || b === 96 || b === 40 || b === 61 || b === 10 || b === 13;
};

// `github = '…'`: a name that starts a word, then an operator after at most
// a few more name characters, a closing quote and spaces.
const serviceAssignment: Precheck = (text, at) => {
  if (at > 0 && isAlnum(text.charCodeAt(at - 1))) return false;
  let i = at;
  const stop = Math.min(text.length, at + 64);
  while (i < stop) {
    const c = text.charCodeAt(i);
    if (isAlnum(c) || c === 95 || c === 46 || c === 45 || c === 92 || c === 34 || c === 39 || c === 32 || c === 9) i++;
    else break;
  }
  const c = text.charCodeAt(i);
  return c === 58 || c === 61;
};

function flagValue(value: string): boolean {
  if (looksLikeTemplate(value) || isCodeReference(value) || /^[~./$%]/.test(value)) return false;
  return passwordLikeValue(value) || keyLikeValue(value);
}

// Element names whose text is a credential; the name must end with one of
// these words (`<apiToken>`, `<secret>`, `<privateKey>`, `<storePassword>`).
const XML_SECRET_WORDS = 'secret|token|password|passwd|passphrase|apikey|api_key|privatekey|private_key|accesskey|access_key|secretkey|secret_key|storagekey|accountkey|sharedkey|credentials';
// Words of element names that make it about a credential, not one.
const XML_NOT_SECRET = /(?:^|[._-])(?:id|url|uri|name|file|path|type|length|expiry|expires|ttl|count|max|min|hash|public|ref|csrf|xsrf|next|page|cursor|continuation)(?:[._-]|$)/i;

function acceptXml(value: string, ctx: MatchContext): boolean {
  const open = ctx.text.lastIndexOf('<', ctx.matchStart);
  const name = ctx.text.slice(open + 1, ctx.text.indexOf('>', ctx.matchStart)).replace(/([a-z0-9])([A-Z])/g, '$1_$2');
  if (XML_NOT_SECRET.test(name)) return false;
  // Jenkins and other servers keep secrets encrypted as `{base64}`: always a credential.
  if (ctx.text[ctx.secretStart - 1] === '{' && ctx.text[ctx.secretEnd] === '}' && /^[A-Za-z0-9+/]{16,}={0,2}$/.test(value)) return true;
  return flagValue(value);
}

// A service's own name assigned a bare value (`github = '…'`, `SLACK: …`).
// The name may add words that still name its credential (`github_oauth`,
// `stripe_live`), but not ones that name something else (`github_sha`,
// `slack_channel`): those are rejected by their words.
const SERVICES = [
  'github',
  'gitlab',
  'bitbucket',
  'slack',
  'stripe',
  'twilio',
  'sendgrid',
  'mailgun',
  'mailchimp',
  'openai',
  'anthropic',
  'heroku',
  'datadog',
  'newrelic',
  'sentry',
  'okta',
  'shopify',
  'dropbox',
  'twitter',
  'facebook',
  'discord',
  'telegram',
  'jira',
  'confluence',
  'jenkins',
  'sonar',
  'tableau',
  'smartsheet',
  'salesforce',
  'cloudflare',
  'digitalocean',
  'notion',
  'airtable',
  'hubspot',
  'zendesk',
  'pagerduty',
  'vercel',
  'netlify',
  'databricks',
  'huggingface',
];
const SERVICE_EXTRA_OK = new Set([
  'api',
  'oauth',
  'app',
  'bot',
  'client',
  'live',
  'prod',
  'production',
  'dev',
  'staging',
  'test',
  'cred',
  'creds',
  'auth',
  'my',
  'the',
  'webhook',
  'integration',
  'service',
  'account',
  'admin',
  'ci',
  'deploy',
]);

const BARE = '[A-Za-z0-9+/=_.-]{20,256}';

function acceptServiceName(value: string, ctx: MatchContext): boolean {
  // A slug (`PROJ-1234-and-more`) is an issue key or a name, not a key.
  if (value.length < 20 || /(?:[A-Za-z0-9]{2,}-){3}/.test(value) || !keyLikeValue(value)) return false;
  const name = /^[A-Za-z0-9_.-]*/.exec(ctx.text.slice(ctx.matchStart))![0];
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
  return words.every((w) => SERVICES.includes(w) || SERVICE_EXTRA_OK.has(w));
}

// Microsoft's identifiable keys (Azure DevOps PATs, Azure storage, Cosmos DB,
// Service Bus, AI services and Azure OpenAI keys since 2024): 84 characters,
// the fixed signature `JQQJ9` at offset 52, then a version (9, D or H), a
// date (its month A-L), a four-character provider signature at offset 76
// (`AZ..`, `ACOG`, `msql`, …) and a checksum; also written as 88 base64
// characters ending in `==`. The layout is the one Microsoft publishes in
// its security-utilities patterns.
const AZURE_ANNOTATED = '(?<![A-Za-z0-9+/])([A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?)(?![A-Za-z0-9+/=])';

// The identifiable keys Azure issued before that format: base64 with a
// four-character signature at a fixed offset naming the service (again as
// Microsoft publishes them). 88 characters: storage (+ASt), Cosmos DB
// (ACDb), Batch (+ABa), Machine Learning (+AMC), API Management (APIM).
const AZURE_SIGNED_88 = '(?<![A-Za-z0-9+/_-])([A-Za-z0-9+/]{76}(?:\\+ASt|ACDb|\\+ABa|\\+AMC|APIM)[A-Za-z0-9+/]{5}[AQgw]==)(?![A-Za-z0-9+/_=-])';
// 44 characters: Relay (+ARm), Event Hubs (+AEh), Service Bus (+ASb), IoT
// (AIoT), Cache for Redis (AzCa), Event Grid (AZEG).
const AZURE_SIGNED_44 = '(?<![A-Za-z0-9+/_-])([A-Za-z0-9+/]{33}(?:\\+ARm|\\+AEh|\\+ASb|AIoT|AzCa|AZEG)[A-P][A-Za-z0-9+/]{5}=)(?![A-Za-z0-9+/_=-])';
// 52 characters: AI Search (AzSe), Container Registry (+ACR).
const AZURE_SIGNED_52 = '(?<![A-Za-z0-9+/_-])([A-Za-z0-9+/]{42}(?:AzSe|\\+ACR)[A-D][A-Za-z0-9+/]{5})(?![A-Za-z0-9+/_=-])';
// 56 characters, URL-safe base64: Azure Functions (AzFu).
const AZURE_SIGNED_56 = '(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5}[AQgw]==)(?![A-Za-z0-9_=-])';

// Jira, Confluence and Bitbucket Data Center personal access tokens: base64
// of a 12-digit id, `:`, and 20 random bytes (44 characters).
function atlassianDcPat(value: string): boolean {
  const raw = Buffer.from(value, 'base64');
  if (raw.length !== 33) return false;
  for (let i = 0; i < 12; i++) if (raw[i]! < 48 || raw[i]! > 57) return false;
  return raw[12] === 58;
}

export const shapeRules: readonly Rule[] = [
  {
    id: 'xml-secret-element',
    description:
      'The text of an XML element named for a secret: <secret>, <apiToken>, <password>, <privateKey>, <storageKey> (Jenkins credentials.xml, Maven settings.xml, .NET and Java configuration), also an encrypted {base64} value.',
    keywords: [
      'secret>',
      'token>',
      'password>',
      'passwd>',
      'passphrase>',
      'apikey>',
      'api_key>',
      'privatekey>',
      'private_key>',
      'accesskey>',
      'access_key>',
      'secretkey>',
      'storagekey>',
      'accountkey>',
      'sharedkey>',
    ],
    pattern: new RegExp(`(?<=<[A-Za-z0-9_:.-]{0,40})(?:${XML_SECRET_WORDS})>(?:[ \\t\\r\\n]|\\\\[nrt]){0,32}\\{?([^\\x00-\\x20"'\`\\\\<>{}]{6,512})\\}?(?:[ \\t\\r\\n]|\\\\[nrt]){0,32}<\\/`, 'i'),
    specificity: Specificity.generic + 3,
    accept: acceptXml,
  },
  {
    id: 'single-dash-secret-flag',
    description:
      'A secret given as a single-dash option, Windows, Java and Azure style: -Password <v>, -storagekey <v>, -vaultToken <v>, -Dsonar.login=<v>, -clientSecret <v>, and -p <v> after -u <user> (psexec, mysql).',
    keywords: ['password', 'passwd', 'token', 'secret', 'storagekey', 'accountkey', 'apikey', 'accesskey', 'sharedkey', 'sonar.login', ' -p '],
    pattern: new RegExp(
      `(?:(?<=(?:^|[ \\t"'\`(=])-(?:D[A-Za-z0-9]{1,20}\\.)?(?:[A-Za-z][A-Za-z0-9]{0,24})?)(?:password|passwd|token|secret|storagekey|accountkey|apikey|accesskey|sharedkey|sonar\\.login)(?:=|[ \\t]{1,4})|(?<=[ \\t]-u[ \\t]{1,4}[^\\x00-\\x20]{1,64}) -p[ \\t]{1,4})${OPEN}(${WORD})`,
      'i',
    ),
    precheck: singleDashBefore,
    specificity: Specificity.generic + 2,
    accept: flagValue,
  },
  {
    id: 'service-named-credential',
    description:
      "A bare credential assigned to a service's own name: github = '…', SLACK: \"…\", stripe_live => '…' (20+ key-like characters; the name may only add words such as api, oauth, client, live).",
    keywords: SERVICES,
    pattern: new RegExp(
      `(?<![A-Za-z0-9])(?:${SERVICES.join('|')})[A-Za-z0-9_.-]{0,24}\\\\{0,3}["']?[ \\t]{0,4}(?::|=|=>|:=)[ \\t]{0,4}\\\\{0,3}(?:"(${BARE})\\\\{0,3}"|'(${BARE})\\\\{0,3}'|\`(${BARE})\\\\{0,3}\`)`,
      'i',
    ),
    precheck: serviceAssignment,
    specificity: Specificity.generic,
    accept: acceptServiceName,
  },
  {
    id: 'network-credential-constructor',
    description:
      'The password argument of a credential constructor in code: new NetworkCredential("user", "…"), new PasswordAuthentication("user", "…".toCharArray()), DirectoryEntry(path, "user", "…").',
    keywords: ['NetworkCredential(', 'PasswordAuthentication(', 'DirectoryEntry('],
    pattern: /(?:NetworkCredential|PasswordAuthentication|DirectoryEntry)\([ \t\r\n]{0,8}(?:"[^"\r\n]{0,200}"[ \t\r\n]{0,8},[ \t\r\n]{0,8}){1,2}"([^"\x00-\x1f]{4,128})"/,
    specificity: Specificity.contextual,
    accept: (value) => !looksLikeTemplate(value) && passwordLikeValue(value),
  },
  {
    id: 'azure-identifiable-key',
    description:
      "Microsoft identifiable key (Azure DevOps PAT, storage, Cosmos DB, Service Bus, AI services since 2024): 84 characters with the signature JQQJ9 at offset 52 and 'AZ' and a service code near the end.",
    keywords: ['JQQJ9'],
    pattern: new RegExp(AZURE_ANNOTATED),
    anchorBack: 52,
    specificity: Specificity.prefixed,
    service: 'Azure',
  },
  ...(
    [
      [
        'azure-identifiable-key-88',
        'storage (+ASt), Cosmos DB (ACDb), Batch (+ABa), Machine Learning (+AMC) or API Management (APIM) key: 88 base64 characters',
        ['+ASt', 'ACDb', '+ABa', '+AMC', 'APIM'],
        AZURE_SIGNED_88,
        76,
      ],
      [
        'azure-identifiable-key-44',
        'Relay (+ARm), Event Hubs (+AEh), Service Bus (+ASb), IoT (AIoT), Cache for Redis (AzCa) or Event Grid (AZEG) key: 44 base64 characters',
        ['+ARm', '+AEh', '+ASb', 'AIoT', 'AzCa', 'AZEG'],
        AZURE_SIGNED_44,
        33,
      ],
      ['azure-identifiable-key-52', 'AI Search (AzSe) or Container Registry (+ACR) key: 52 characters', ['AzSe', '+ACR'], AZURE_SIGNED_52, 42],
      ['azure-functions-key', 'Azure Functions access key: 56 URL-safe base64 characters with AzFu at offset 44', ['AzFu'], AZURE_SIGNED_56, 44],
    ] as const
  ).map(([id, what, keywords, pattern, back]): Rule => ({
    id,
    description: `Azure identifiable ${what}, the service's signature at a fixed offset.`,
    keywords,
    pattern: new RegExp(pattern),
    anchorBack: back,
    specificity: Specificity.prefixed,
    service: 'Azure',
  })),
  {
    id: 'azure-storage-key-context',
    description: 'A bare 88-character base64 Azure storage or Cosmos DB account key next to the words that name it (-storagekey, AccountKey, storage account key, az storage … --account-key).',
    keywords: ['storagekey', 'storage key', 'storage_key', 'storage-key', 'accountkey', 'account key', 'account_key', 'account-key', 'masterkey', 'master key', 'cosmos'],
    pattern: /(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/,
    window: { before: 40, after: 120 },
    specificity: Specificity.contextual,
    entropy: 4.5,
    service: 'Azure Storage',
  },
  {
    id: 'atlassian-data-center-pat',
    description: 'Jira, Confluence or Bitbucket Data Center personal access token: 44 base64 characters that decode to a 12-digit id, a colon and 20 random bytes.',
    keywords: ['jira', 'confluence', 'bitbucket', 'atlassian'],
    pattern: /(?<![A-Za-z0-9+/])([MNO][A-Za-z0-9+/]{43})(?![A-Za-z0-9+/=])/,
    window: { before: 200, after: 200 },
    specificity: Specificity.structured,
    service: 'Atlassian',
    accept: atlassianDcPat,
  },
  {
    id: 'tableau-pat-secret',
    description: 'Tableau personal access token secret: 22 base64 characters, ==: and 32 letters and digits.',
    keywords: ['==:'],
    pattern: /(?<![A-Za-z0-9+/])([A-Za-z0-9+/]{22}==:[A-Za-z0-9]{32})(?![A-Za-z0-9])/,
    anchorBack: 22,
    specificity: Specificity.prefixed,
    entropy: 3.5,
    service: 'Tableau',
  },
  {
    id: 'smartsheet-api-token',
    description: 'Smartsheet API access token (26 or 37 letters and digits) next to the word smartsheet.',
    keywords: ['smartsheet'],
    pattern: /(?<![A-Za-z0-9])([A-Za-z0-9]{37}|[A-Za-z0-9]{26})(?![A-Za-z0-9])/,
    window: { before: 20, after: 80 },
    specificity: Specificity.contextual,
    service: 'Smartsheet',
    accept: (value) => /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && keyLikeValue(value),
  },
  withPrefixEvidence({
    id: 'dependency-track-api-key',
    description: 'Dependency-Track API key: odt_ and 32-40 letters and digits.',
    keywords: ['odt_'],
    pattern: /(?<![A-Za-z0-9_])(odt_[A-Za-z0-9]{32,40})(?![A-Za-z0-9])/,
    specificity: Specificity.prefixed,
    entropy: 3.5,
    service: 'Dependency-Track',
  }),
  withPrefixEvidence({
    id: 'django-insecure-secret-key',
    description: 'Django SECRET_KEY as startproject generates it for development: django-insecure- and 50 characters.',
    keywords: ['django-insecure-'],
    pattern: /(django-insecure-[^\x00-\x20"'`\\]{40,60})(?=[\x00-\x20"'`]|$)/,
    specificity: Specificity.prefixed,
    service: 'Django',
  }),
  {
    id: 'vault-unseal-key',
    description: 'HashiCorp Vault unseal key (44 base64 characters) after "Unseal Key N:" or "vault operator unseal".',
    keywords: ['unseal key', 'operator unseal'],
    pattern: /(?:unseal key[ \t]{0,2}[0-9]{0,2}[ \t]{0,2}:|operator unseal(?:[ \t]{1,4}-[a-z-]{1,20}(?:=[^ \t]{1,40})?){0,3})[ \t]{1,4}([A-Za-z0-9+/]{43}=?|[A-Za-z0-9+/]{44})(?![A-Za-z0-9+/=])/i,
    specificity: Specificity.contextual,
    entropy: 3.5,
    service: 'HashiCorp Vault',
  },
  {
    id: 'jenkins-crumb',
    description: 'Jenkins CSRF crumb or initial admin password: Jenkins-Crumb: <32-64 hex>, or the 32 hex after "Please use the following password to proceed to installation:".',
    keywords: ['jenkins-crumb', 'proceed to installation:'],
    pattern: /(?:jenkins-crumb[ \t]{0,2}[:=][ \t]{0,2}|proceed to installation:(?:[ \t]{0,8}(?:\r?\n|(?:\\r)?\\n)){1,3}[ \t]{0,8})([0-9a-f]{32,64})(?![0-9a-f])/i,
    specificity: Specificity.contextual,
    service: 'Jenkins',
  },
  {
    id: 'microsoft-teams-legacy-webhook-url',
    description: 'Microsoft Teams incoming webhook URL in the older outlook.office.com/webhook/ form (group and tenant ids, IncomingWebhook, token, creator id).',
    keywords: ['outlook.office.com/webhook/'],
    pattern: /(https?:\/\/outlook\.office\.com\/webhook\/[A-Za-z0-9@%-]{20,160}\/IncomingWebhook\/[A-Za-z0-9]{20,64}\/[A-Za-z0-9-]{20,64})(?![A-Za-z0-9-])/,
    window: { before: 10, after: 400 },
    specificity: Specificity.structured,
    service: 'Microsoft Teams',
  },
  withPrefixEvidence({
    id: 'new-relic-admin-query-key',
    description: 'New Relic admin API key (NRAA- and 27 hex) or Insights query key (NRIQ- and 32 characters).',
    keywords: ['NRAA-', 'NRIQ-'],
    pattern: /(?<![A-Za-z0-9_-])(NRAA-[a-f0-9]{27}|NRIQ-[A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/,
    specificity: Specificity.prefixed,
    entropy: 3,
    service: 'New Relic',
  }),
  {
    id: 'kubernetes-bootstrap-token',
    description: 'Kubernetes (kubeadm) bootstrap token: 6 and 16 lower-case letters and digits joined by a dot, next to the words that name it.',
    keywords: ['bootstrap', 'kubeadm', 'token-secret', '--token'],
    pattern: /(?<![a-z0-9.])([a-z0-9]{6}\.[a-z0-9]{16})(?![a-z0-9.])/,
    window: { before: 20, after: 120 },
    specificity: Specificity.structured,
    entropy: 3,
    service: 'Kubernetes',
    accept: (value) => /[0-9]/.test(value.slice(7)) && /[a-z]/.test(value.slice(7)),
  },
  {
    id: 'personal-access-token-name',
    description:
      'A value assigned to a name that is or ends in PAT, as personal access tokens of GitHub, GitLab, Azure DevOps and Jira or Confluence Data Center are named: ADO_PAT=…, jira_pat: …, confluencePat = "…", "pat": "…" (20+ key-like characters).',
    keywords: ['pat'],
    pattern: new RegExp(
      `(?:(?<![A-Za-z0-9_.-])(?:pat|PAT)|(?<=[A-Za-z0-9][_.-])(?:pat|PAT)|(?<=[a-z0-9])Pat)\\\\{0,3}["']?[ \\t]{0,4}(?::|=|=>|:=)[ \\t]{0,4}${OPEN}(?=([A-Za-z0-9+/_.~-]{20,256}={0,2}))\\1(?![A-Za-z0-9+/=_.~-])`,
    ),
    // `pat` is mostly the start of path, pattern or patch: only a name that ends there can match.
    // The value takes `=` only as padding and is read once (lookahead and back-reference), so
    // `pat=pat=…` costs no backtracking.
    precheck: (text, at) => {
      const c = text.charCodeAt(at + 3);
      return !(isAlnum(c) || c === 95 || c === 46 || c === 45);
    },
    specificity: Specificity.generic + 1,
    accept: (value) => !isCodeReference(value) && keyLikeValue(value),
  },
];
