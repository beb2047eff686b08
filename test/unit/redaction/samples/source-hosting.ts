import { b62, b64url, hex, lowerAlnum, mixedHex } from '../fake.js';
import { tp, type SampleTable, type RuleSamples } from './types.js';

const github = (prefix: string): RuleSamples => ({
  tp: [tp('GITHUB_TOKEN=', `${prefix}${b62(36)}`), tp('git clone https://x-access-token:', `${prefix}${b62(36)}`, '@github.com/o/r')],
  fp: [`${prefix}${'x'.repeat(36)}`, `${prefix}${b62(35)}`, `${prefix}${b62(37)}`],
});

const gitlab = (prefix: string, legacy: number): RuleSamples => ({
  tp: [tp('GITLAB_TOKEN=', `${prefix}${b64url(legacy)}`), tp('token: ', `${prefix}${b62(30)}.01${lowerAlnum(7)}`)],
  fp: [`${prefix}${'X'.repeat(legacy)}`, `${prefix}${b62(legacy - 4)}`],
});

export const sourceHostingSamples: SampleTable = {
  'github-pat': github('ghp_'),
  'github-oauth-token': github('gho_'),
  'github-user-to-server-token': github('ghu_'),
  'github-app-installation-token': github('ghs_'),
  'github-refresh-token': github('ghr_'),
  'github-fine-grained-pat': {
    tp: [tp('GH_TOKEN=', `github_pat_${b62(22)}_${b62(59)}`)],
    fp: [`github_pat_${'x'.repeat(22)}_${'x'.repeat(59)}`, `github_pat_${b62(30)}`],
  },
  'gitlab-pat': gitlab('glpat-', 20),
  'gitlab-deploy-token': gitlab('gldt-', 20),
  'gitlab-runner-token': gitlab('glrt-', 20),
  'gitlab-scim-token': gitlab('glsoat-', 20),
  'gitlab-feed-token': gitlab('glft-', 20),
  'gitlab-incoming-mail-token': gitlab('glimt-', 25),
  'gitlab-oauth-app-secret': gitlab('gloas-', 64),
  'gitlab-agent-token': gitlab('glagent-', 50),
  'gitlab-feature-flag-token': gitlab('glffct-', 20),
  'gitlab-ci-job-token': {
    tp: [tp('CI_JOB_TOKEN=', `glcbt-${b62(3)}_${b62(20)}`)],
    fp: [`glcbt-${b62(3)}_${b62(10)}`],
  },
  'gitlab-pipeline-trigger-token': {
    tp: [tp('-F token=', `glptt-${hex(40)}`, ' -F ref=main')],
    fp: [`glptt-${'x'.repeat(40)}`],
  },
  'gitlab-runner-registration-token': {
    tp: [tp('--registration-token ', `GR1348941${b64url(20)}`)],
    fp: ['GR1348941XXXXXXXXXXXXXXXXXXXX', `GR1348941${b62(10)}`],
  },
  'gitlab-session-cookie': {
    tp: [tp('Cookie: _gitlab_session=', lowerAlnum(32), '; path=/')],
    fp: [`_gitlab_session=${lowerAlnum(16)}`],
  },
  'atlassian-api-token': {
    tp: [tp('JIRA_API_TOKEN=', `ATATT3${b64url(180)}=${hex(8).toUpperCase()}`)],
    fp: [`ATATT3${b62(20)}`],
  },
  'atlassian-legacy-api-token': {
    tp: [tp('JIRA_API_TOKEN=', b62(24)), tp('confluence_token: "', b62(24), '"')],
    fp: ['getPagesInConfluenceSpace,searchConfluenceUsingCql', `jira_url = https://acme.atlassian.net/${b62(24)}`],
  },
  'bitbucket-app-password': {
    tp: [tp('BITBUCKET_APP_PASSWORD=', `ATBB${b62(32)}`)],
    fp: [`ATBB${b62(20)}`],
  },
  'circleci-personal-token': {
    tp: [tp('Circle-Token: ', `CCIPAT_${b62(22)}_${hex(40)}`)],
    fp: [`CCIPAT_${b62(22)}`],
  },
  'circleci-api-token': {
    tp: [tp('CIRCLE_TOKEN=', hex(40))],
    fp: [`circleRadius = ${hex(12)}`, `circle_token = ${'0'.repeat(40)}`],
  },
  'travis-ci-token': {
    tp: [tp('TRAVIS_API_TOKEN: ', b62(22))],
    fp: [`travis: ${b62(10)}`],
  },
  'drone-ci-token': {
    tp: [tp('DRONE_TOKEN=', b62(32))],
    fp: ['drone_speed = 42', `drone_token = ${'a'.repeat(32)}`],
  },
  'sourcegraph-access-token': {
    tp: [tp('SRC_ACCESS_TOKEN=', `sgp_${hex(16)}_${hex(40)}`), tp('token ', `sgp_local_${hex(40)}`)],
    fp: [`sgp_${hex(20)}`],
  },
  'sourcegraph-legacy-token': {
    tp: [tp('SOURCEGRAPH_TOKEN=', mixedHex(40))],
    fp: ['sourcegraph_url = https://sourcegraph.com'],
  },
  'buildkite-api-token': {
    tp: [tp('BUILDKITE_API_TOKEN=', `bkua_${hex(40)}`)],
    fp: [`bkua_${hex(20)}`],
  },
};
