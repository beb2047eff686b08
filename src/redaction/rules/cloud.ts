import { hasAscendingSequence, notPlaceholder } from '../filters.js';
import { contextualAssignment, prefixedToken, Specificity, type Rule } from '../rule.js';

const HEX32 = '(?<![0-9A-Za-z])([0-9a-f]{32})(?![0-9A-Za-z])';

export const cloudRules: readonly Rule[] = [
  prefixedToken({
    id: 'aws-access-key-id',
    description: 'AWS access key id: AKIA/ASIA/ABIA/ACCA and 16 base32 characters, or legacy A3T.',
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'],
    token: '(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}|A3T[A-Z0-9]{17}',
    entropy: 3,
  }),
  contextualAssignment({
    id: 'aws-secret-access-key',
    description: 'AWS secret access key: 40 base64 characters assigned to an aws_secret_access_key-like name.',
    keywords: ['aws_secret', 'aws-secret', 'aws.secret', 'awssecret', 'secret_access_key', 'secret-access-key', 'secretaccesskey'],
    name: 'aws[_.-]?secret|secret[_.-]?access[_.-]?key',
    value: '[A-Za-z0-9/+]{40}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'aws-session-token',
    description: 'AWS STS session token: a long base64 blob assigned to aws_session_token or x-amz-security-token.',
    keywords: ['aws_session_token', 'aws-session-token', 'awssessiontoken', 'aws_security_token', 'x-amz-security-token'],
    name: 'aws[_-]?session[_-]?token|aws_security_token|x-amz-security-token',
    value: '[A-Za-z0-9/+=]{100,4096}',
    entropy: 4,
  }),
  prefixedToken({
    id: 'aws-bedrock-api-key',
    description: 'Amazon Bedrock long-lived API key: ABSK and base64 of "BedrockAPIKey-…".',
    keywords: ['ABSKQmVkcm9ja0FQSUtleS'],
    token: 'ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{60,300}={0,2}',
    entropy: 4,
  }),
  prefixedToken({
    id: 'aws-bedrock-short-term-api-key',
    description: 'Amazon Bedrock short-term API key: bedrock-api-key- and base64 of a presigned bedrock.amazonaws.com URL.',
    keywords: ['bedrock-api-key-'],
    token: 'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=]{0,4096}',
  }),
  prefixedToken({
    id: 'gcp-api-key',
    description: 'Google API key (Gemini, Maps, Firebase): AIzaSy and 33 URL-safe characters.',
    keywords: ['AIza'],
    token: 'AIzaSy[A-Za-z0-9_-]{33}',
    entropy: 3.5,
    accept: (s) => notPlaceholder(s) && !hasAscendingSequence(s),
  }),
  {
    ...contextualAssignment({
      id: 'gcp-service-account-key-id',
      description: 'Google service-account JSON: the 40-hex private_key_id next to the PEM key.',
      keywords: ['private_key_id'],
      name: 'private_key_id',
      value: '[0-9a-f]{40}',
      entropy: 3,
    }),
    specificity: Specificity.structured,
  },
  prefixedToken({
    id: 'google-oauth-client-secret',
    description: 'Google OAuth client secret: GOCSPX- and 28 characters.',
    keywords: ['GOCSPX-'],
    token: 'GOCSPX-[A-Za-z0-9_-]{28}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'google-oauth-access-token',
    description: 'Google OAuth access token: ya29. and a URL-safe blob.',
    keywords: ['ya29.'],
    token: 'ya29\\.[A-Za-z0-9_-]{20,2048}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'google-oauth-refresh-token',
    description: 'Google OAuth refresh token: 1//0 and a URL-safe blob.',
    keywords: ['1//0'],
    token: '1//0[A-Za-z0-9_-]{40,512}',
    entropy: 3.5,
  }),
  {
    id: 'azure-ad-client-secret',
    description: 'Microsoft Entra ID (Azure AD) client secret: 3 characters, a digit, Q~, then 31-34 characters.',
    keywords: ['Q~'],
    pattern: /(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/,
    anchorBack: 4,
    entropy: 3.5,
    specificity: Specificity.prefixed,
  },
  {
    id: 'azure-storage-account-key',
    description: 'Azure storage account key: 88 base64 characters after AccountKey= in a connection string.',
    keywords: ['accountkey='],
    pattern: /AccountKey=([A-Za-z0-9+/]{86,88}={0,2})(?![A-Za-z0-9+/=])/i,
    entropy: 4,
    specificity: Specificity.structured,
  },
  {
    id: 'azure-sas-signature',
    description: 'Azure shared access signature: the sig= of a query string that starts with sv=<date>.',
    keywords: ['sv='],
    pattern: /(?<![A-Za-z0-9_])sv=[0-9]{4}-[0-9]{2}-[0-9]{2}[^\x00-\x20"'<>]{0,600}?[?&;]sig=([A-Za-z0-9%+/=]{30,200})/,
    entropy: 3.5,
    specificity: Specificity.structured,
  },
  {
    id: 'azure-openai-api-key',
    description: 'Azure OpenAI / AI Services key: 32 hex characters near an Azure OpenAI endpoint or variable.',
    keywords: ['openai.azure.com', 'cognitiveservices.azure.com', 'azure_openai', 'azure-openai', 'azureopenai'],
    pattern: new RegExp(HEX32),
    window: { before: 300, after: 300 },
    entropy: 3.2,
    specificity: Specificity.contextual,
  },
  {
    id: 'azure-devops-pat',
    description: 'Azure DevOps personal access token: 52 base32 characters (legacy) or 84 with the AZDO signature, near Azure DevOps.',
    keywords: ['azure_devops', 'azure-devops', 'azuredevops', 'dev.azure.com', 'visualstudio.com', 'ado_pat', 'ado_token', 'system_accesstoken'],
    pattern: /(?<![A-Za-z0-9])([a-z2-7]{52}|[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4})(?![A-Za-z0-9])/,
    window: { before: 200, after: 300 },
    entropy: 3.5,
    specificity: Specificity.contextual,
  },
  {
    // Azure DevOps' PAT format since 2024 (Microsoft's announcement of the
    // new format: 84 characters, the AZDO signature at positions 76-79).
    // Four fixed letters at a fixed offset of an 84-character run are shape
    // enough without the service's name nearby.
    id: 'azure-devops-pat-structure',
    description: 'Azure DevOps personal access token by its structure alone: 76 letters and digits, AZDO, 4 more.',
    keywords: ['AZDO'],
    pattern: /(?<![A-Za-z0-9])([A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4})(?![A-Za-z0-9])/,
    window: { before: 76, after: 8 },
    entropy: 3.5,
    specificity: Specificity.structured,
    service: 'Azure DevOps',
  },
  {
    // The connection string's Id is the first half of the access key pair
    // (`Id=…;Secret=…`); the Secret is found by the service-table rule.
    id: 'azure-app-configuration-id',
    description: 'Azure App Configuration connection string: the access key Id before ;Secret=.',
    keywords: ['azconfig.io;id='],
    pattern: /azconfig\.io;Id=([A-Za-z0-9+/:_-]{8,64})(?=;Secret=)/i,
    specificity: Specificity.structured,
    service: 'Azure App Configuration',
  },
  prefixedToken({
    id: 'alibaba-access-key-id',
    description: 'Alibaba Cloud AccessKey id: LTAI and 12-20 characters.',
    keywords: ['LTAI'],
    token: 'LTAI[A-Za-z0-9]{12,20}',
    entropy: 3,
  }),
  contextualAssignment({
    id: 'alibaba-access-key-secret',
    description: 'Alibaba Cloud AccessKey secret: 30 characters assigned to an alibaba/aliyun name.',
    keywords: ['alibaba', 'aliyun', 'alicloud'],
    name: 'alibaba|aliyun|alicloud',
    value: '[A-Za-z0-9]{30}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'yandex-api-key',
    description: 'Yandex Cloud API key: AQVN and 35-38 characters.',
    keywords: ['AQVN'],
    token: 'AQVN[A-Za-z0-9_-]{35,38}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'yandex-iam-token',
    description: 'Yandex Cloud IAM token: t1. and two dot-separated URL-safe parts.',
    keywords: ['t1.'],
    token: 't1\\.[A-Za-z0-9_-]{1,100}={0,2}\\.[A-Za-z0-9_-]{80,90}={0,2}',
    entropy: 4,
  }),
];
