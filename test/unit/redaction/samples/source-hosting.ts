import { b62, b64url, hex, lowerAlnum, mixedHex } from '../fake.js';
import { crc32 } from 'node:zlib';
import { tp, type SampleTable, type RuleSamples } from './types.js';

// A token of GitHub's 2021 formats with the checksum GitHub's generator
// gives it (CRC-32 of the 30 random characters, six base62 digits), computed
// here with zlib's CRC-32, not the code under test.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function githubMinted(prefix: string, body = b62(30)): string {
  let crc = crc32(body);
  let check = '';
  for (let i = 0; i < 6; i++) {
    check = BASE62[crc % 62]! + check;
    crc = Math.floor(crc / 62);
  }
  return `${prefix}${body}${check}`;
}
const minted = githubMinted('ghp_');

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
  'github-app-installation-token-jwt': {
    tp: [tp('GITHUB_TOKEN=', `ghs_1234567_${b64url(36)}.${b64url(320)}.${b64url(43)}`), tp('Authorization: token ', `ghs_98_${b64url(20)}.${b64url(60)}.${b64url(43)}`, '\n')],
    fp: [`ghs_${b62(36)}`, `ghs_12_${b62(5)}.${b62(5)}.${b62(5)}`, `ghs_${b62(12)}_${b64url(20)}.${b64url(20)}.${b64url(20)}`],
  },
  'github-token-checksum': {
    tp: [tp('our', minted), tp('https://example.com/', githubMinted('gho_'), '/x'), tp('token.', githubMinted('ghs_')), tp('GH=', githubMinted('ghu_')), tp('x', githubMinted('ghr_', 'x'.repeat(30)))],
    fp: [`our${'ghp_'}${b62(36)}`, `ghp_${'x'.repeat(36)}`, `${minted.slice(0, 39)}${minted[39] === 'A' ? 'B' : 'A'}`, `${minted}A`, `ghx_${minted.slice(4)}`],
  },
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
