import { base62Crc32Valid } from '../filters.js';
import { contextualAssignment, prefixedToken, Specificity, type Rule } from '../rule.js';

function github(id: string, prefix: string, what: string): Rule {
  return prefixedToken({
    id,
    description: `GitHub ${what}: ${prefix} and 36 base62 characters.`,
    keywords: [prefix],
    token: `${prefix}[A-Za-z0-9]{36}`,
    entropy: 3,
  });
}

// GitLab tokens come in a legacy form (prefix and a fixed-length body) and a
// routable one (prefix, 27+ characters, '.', 2-character version and a
// 7-character base36 CRC); both are accepted for every prefix.
function gitlab(id: string, prefix: string, legacy: number, what: string): Rule {
  return prefixedToken({
    id,
    description: `GitLab ${what}: ${prefix} and ${legacy} characters, or the routable form.`,
    keywords: [prefix],
    token: `${prefix.replace('.', '\\.')}(?:[A-Za-z0-9_-]{27,300}\\.[0-9a-z]{9}|[A-Za-z0-9_-]{${legacy}})`,
    entropy: 3,
  });
}

export const sourceHostingRules: readonly Rule[] = [
  github('github-pat', 'ghp_', 'classic personal access token'),
  github('github-oauth-token', 'gho_', 'OAuth access token'),
  github('github-user-to-server-token', 'ghu_', 'user-to-server token'),
  github('github-app-installation-token', 'ghs_', 'app installation (server-to-server) token'),
  github('github-refresh-token', 'ghr_', 'refresh token'),
  // GitHub's stateless installation tokens (rolled out from April 2026, the
  // Actions GITHUB_TOKEN among them): ghs_, the app id, _ and a JWT signed by
  // GitHub, about 520 characters (GitHub changelog, "Notice about upcoming
  // new format for GitHub App installation tokens").
  prefixedToken({
    id: 'github-app-installation-token-jwt',
    description: 'GitHub app installation token, stateless form: ghs_, the app id, _ and a JWT (three base64url parts).',
    keywords: ['ghs_'],
    token: 'ghs_[0-9]{1,20}_[A-Za-z0-9_-]{8,2048}\\.[A-Za-z0-9_-]{8,2048}\\.[A-Za-z0-9_-]{8,2048}',
    entropy: 3,
  }),
  // A checksum that verifies is proof by itself, so this form needs no
  // boundary before the token: it is found glued to a word, a path or a
  // base64 run (`ourghp_…`, `/ghp_…`), where the rules above must not look.
  {
    id: 'github-token-checksum',
    description: 'GitHub token of the 2021 formats (ghp_, gho_, ghu_, ghs_, ghr_) whose CRC-32 checksum verifies, wherever it stands.',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(gh[pousr]_[A-Za-z0-9]{36})(?![A-Za-z0-9])/,
    specificity: Specificity.prefixed,
    accept: (token) => base62Crc32Valid(token),
  },
  prefixedToken({
    id: 'github-fine-grained-pat',
    description: 'GitHub fine-grained personal access token: github_pat_ and 82 characters (22, _, 59).',
    keywords: ['github_pat_'],
    token: 'github_pat_[A-Za-z0-9_]{82}',
    entropy: 3,
  }),
  gitlab('gitlab-pat', 'glpat-', 20, 'personal, project or group access token'),
  gitlab('gitlab-deploy-token', 'gldt-', 20, 'deploy token'),
  gitlab('gitlab-runner-token', 'glrt-', 20, 'runner authentication token'),
  gitlab('gitlab-scim-token', 'glsoat-', 20, 'SCIM OAuth token'),
  gitlab('gitlab-feed-token', 'glft-', 20, 'feed token'),
  gitlab('gitlab-incoming-mail-token', 'glimt-', 25, 'incoming mail token'),
  gitlab('gitlab-oauth-app-secret', 'gloas-', 64, 'OAuth application secret'),
  gitlab('gitlab-agent-token', 'glagent-', 50, 'Kubernetes agent token'),
  gitlab('gitlab-feature-flag-token', 'glffct-', 20, 'feature-flag client token'),
  prefixedToken({
    id: 'gitlab-ci-job-token',
    description: 'GitLab CI/CD job token: glcbt-, a short partition id, _ and 20 characters.',
    keywords: ['glcbt-'],
    token: 'glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'gitlab-pipeline-trigger-token',
    description: 'GitLab pipeline trigger token: glptt- and 40 hex characters.',
    keywords: ['glptt-'],
    token: 'glptt-[0-9a-f]{40}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'gitlab-runner-registration-token',
    description: 'GitLab runner registration token: GR1348941 and 20 characters.',
    keywords: ['GR1348941'],
    token: 'GR1348941[A-Za-z0-9_-]{20}',
    entropy: 3,
  }),
  {
    id: 'gitlab-session-cookie',
    description: 'GitLab session cookie value: 32 characters after _gitlab_session=.',
    keywords: ['_gitlab_session='],
    pattern: /_gitlab_session=([0-9a-z]{32})(?![0-9A-Za-z])/,
    entropy: 3,
    specificity: Specificity.structured,
  },
  prefixedToken({
    id: 'atlassian-api-token',
    description: 'Atlassian (Jira, Confluence, Bitbucket) API token: ATATT3 and about 186 characters.',
    keywords: ['ATATT3'],
    token: 'ATATT3[A-Za-z0-9_=-]{150,300}',
    entropy: 4,
  }),
  contextualAssignment({
    id: 'atlassian-legacy-api-token',
    description: 'Legacy 24-character Atlassian API token assigned to a jira/confluence/atlassian name.',
    keywords: ['jira', 'confluence', 'atlassian'],
    name: 'jira|confluence|atlassian',
    value: '[A-Za-z0-9]{24}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'bitbucket-app-password',
    description: 'Bitbucket app password: ATBB and 32 characters.',
    keywords: ['ATBB'],
    token: 'ATBB[A-Za-z0-9_=.-]{32}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'circleci-personal-token',
    description: 'CircleCI personal API token: CCIPAT_, 22 characters, _ and 40 hex.',
    keywords: ['CCIPAT_'],
    token: 'CCIPAT_[A-Za-z0-9]{22}_[0-9a-f]{40}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'circleci-api-token',
    description: 'CircleCI API token: 40 hex characters assigned to a circle name.',
    keywords: ['circle'],
    name: 'circle',
    value: '[0-9a-f]{40}',
    entropy: 3,
  }),
  contextualAssignment({
    id: 'travis-ci-token',
    description: 'Travis CI API token: 22 characters assigned to a travis name.',
    keywords: ['travis'],
    name: 'travis',
    value: '[A-Za-z0-9_-]{22}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'drone-ci-token',
    description: 'Drone CI token: 32 characters assigned to a drone name.',
    keywords: ['drone'],
    name: 'drone',
    value: '[A-Za-z0-9]{32}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'sourcegraph-access-token',
    description: 'Sourcegraph access token: sgp_, an optional 16-hex or local_ instance part, and 40 hex.',
    keywords: ['sgp_'],
    token: 'sgp_(?:[0-9a-fA-F]{16}_|local_)?[0-9a-fA-F]{40}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'sourcegraph-legacy-token',
    description: 'Legacy Sourcegraph access token: 40 hex characters assigned to a sourcegraph name.',
    keywords: ['sourcegraph'],
    name: 'sourcegraph',
    value: '[0-9a-fA-F]{40}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'buildkite-api-token',
    description: 'Buildkite user API token: bkua_ and 40 hex characters.',
    keywords: ['bkua_'],
    token: 'bkua_[0-9a-f]{40}',
    entropy: 3,
  }),
];
