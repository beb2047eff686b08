import { decodeBase64, hasPlaceholderWords, looksLikeTemplate, notPlaceholder } from '../filters.js';
import { base62Crc32Valid } from '../filters.js';
import { maxMatchLength, urlTokenRunWithin } from '../prechecks.js';
import { ASSIGN, contextualAssignment, prefixedToken, Specificity, type Rule } from '../rule.js';

const NPMRC_AUTH_TOKEN = /_authToken[ \t]{0,4}=[ \t]{0,4}["']?([A-Za-z0-9._~+/=-]{20,512})(?![A-Za-z0-9._~+/=-])/i;

export const packageRegistryRules: readonly Rule[] = [
  prefixedToken({
    id: 'npm-access-token',
    description: 'npm access token: npm_ and 36 base62 characters.',
    keywords: ['npm_'],
    token: 'npm_[A-Za-z0-9]{36}',
    entropy: 3,
  }),
  // As for GitHub's tokens: a checksum that verifies is proof, so the token
  // is found glued to other characters too.
  {
    id: 'npm-access-token-checksum',
    description: 'npm access token (npm_ and 36 base62 characters) whose CRC-32 checksum verifies, wherever it stands.',
    keywords: ['npm_'],
    pattern: /(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])/,
    specificity: Specificity.prefixed,
    accept: (token) => base62Crc32Valid(token),
  },
  {
    id: 'npmrc-auth-token',
    description: 'npm registry token in .npmrc: the value of _authToken= (legacy UUIDs included).',
    keywords: ['_authtoken'],
    pattern: NPMRC_AUTH_TOKEN,
    // `_authToken=_authToken=…` is one run of value characters: each hit read 512 and backtracked.
    precheck: urlTokenRunWithin(maxMatchLength(NPMRC_AUTH_TOKEN.source)),
    entropy: 3,
    specificity: Specificity.structured,
  },
  // The macaroon's head (its version and the location pypi.org or
  // test.pypi.org, base64url) spells 20 or more fixed characters that no
  // other text does, so the token needs no boundary before it: it is found
  // inside a template (`${{ secrets.pypi-AgEI… }}`) or glued to a word.
  {
    id: 'pypi-upload-token',
    description: 'PyPI or TestPyPI upload token: pypi- and a macaroon that encodes pypi.org or test.pypi.org, wherever it stands.',
    keywords: ['pypi-Ag'],
    pattern: /(pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,2048})(?![A-Za-z0-9_+/=-])/,
    entropy: 3.5,
    specificity: Specificity.prefixed,
  },
  prefixedToken({
    id: 'rubygems-api-token',
    description: 'RubyGems API key: rubygems_ and 48 hex characters.',
    keywords: ['rubygems_'],
    token: 'rubygems_[0-9a-f]{48}',
    entropy: 3,
  }),
  {
    id: 'nuget-api-key',
    description: 'NuGet API key: oy2 and 43 characters near the word nuget.',
    keywords: ['nuget'],
    pattern: /(?<![A-Za-z0-9])(oy2[a-z0-9]{43})(?![A-Za-z0-9])/,
    window: { before: 200, after: 300 },
    entropy: 3.5,
    specificity: Specificity.contextual,
  },
  {
    id: 'nuget-config-password',
    description: 'Clear-text feed password in NuGet.Config: <add key="ClearTextPassword" value="…"/>.',
    keywords: ['cleartextpassword'],
    pattern: /key=\\{0,2}["']ClearTextPassword\\{0,2}["'][ \t]{1,8}value=\\{0,2}["']([^"'\\\r\n]{1,256})\\{0,2}["']/i,
    window: { before: 8, after: 300 },
    specificity: Specificity.structured,
    accept: (s) => s.length >= 6 && !looksLikeTemplate(s) && !hasPlaceholderWords(s) && notPlaceholder(s),
  },
  prefixedToken({
    id: 'dockerhub-access-token',
    description: 'Docker Hub personal or organisation access token: dckr_pat_ or dckr_oat_ and 27-40 characters.',
    keywords: ['dckr_pat_', 'dckr_oat_'],
    token: 'dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,40}',
    entropy: 3.5,
  }),
  {
    id: 'docker-config-auth',
    description: 'Docker config.json "auth": base64 of user:password.',
    keywords: ['"auth', 'auth:'],
    pattern: /(?:"auth\\{0,2}"|(?<![A-Za-z0-9_"-])auth)[ \t]{0,4}:[ \t]{0,4}(?:\\{0,2}")?([A-Za-z0-9+/]{8,1024}={0,2})(?![A-Za-z0-9+/=])/,
    specificity: Specificity.structured,
    accept: (s) => {
      const bytes = decodeBase64(s);
      return bytes !== null && bytes.includes(0x3a) && notPlaceholder(bytes.toString('latin1'));
    },
  },
  prefixedToken({
    id: 'clojars-api-token',
    description: 'Clojars deploy token: CLOJARS_ and 60 characters.',
    keywords: ['CLOJARS_'],
    token: 'CLOJARS_[a-z0-9]{60}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'jfrog-api-key',
    description: 'JFrog Artifactory API key: AKCp and 69 characters.',
    keywords: ['AKCp'],
    token: 'AKCp[A-Za-z0-9]{69}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'jfrog-reference-token',
    description: 'JFrog Artifactory reference token: cmVmd (base64 of "ref") and 59 characters.',
    keywords: ['cmVmd'],
    token: 'cmVmd[A-Za-z0-9]{59}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'jfrog-identity-token',
    description: 'JFrog identity / access token: 64 characters assigned to an artifactory or jfrog name.',
    keywords: ['artifactory', 'jfrog'],
    name: 'artifactory|jfrog',
    value: '[A-Za-z0-9]{64}',
    entropy: 3.5,
  }),
  {
    id: 'sidekiq-gem-credentials',
    description: 'Sidekiq Pro/Enterprise gem server credentials (user:password) in BUNDLE_*__CONTRIBSYS__COM.',
    keywords: ['__contribsys__com'],
    pattern: new RegExp(`__CONTRIBSYS__COM[A-Za-z0-9_]{0,16}${ASSIGN}([0-9a-f]{8}:[0-9a-f]{8})(?![0-9A-Za-z])`, 'i'),
    specificity: Specificity.structured,
  },
  prefixedToken({
    id: 'crates-io-token',
    description: 'crates.io API token: cio and 32 characters.',
    keywords: ['cio'],
    token: 'cio[A-Za-z0-9]{32}',
    entropy: 3.5,
  }),
];
