import { b62, b64, hex } from '../fake.js';
import { tp, type SampleTable } from './types.js';

// Jira and Confluence Data Center tokens are base64 of "<12-digit id>:<random>".
const dataCenterPat = () => Buffer.from(`4${hex(11).replace(/[a-f]/g, '7')}:${b62(20)}`).toString('base64');

export const patNameSamples: SampleTable = {
  'personal-access-token-name': {
    tp: [
      tp('jira_pat: ', dataCenterPat(), '\n'),
      tp('export ADO_PAT=', `${b62(50)}7q`, '\n'),
      tp("confluencePat = '", dataCenterPat(), "';"),
      tp('{"pat": "', `${b64(38)}9x`, '"}'),
      tp('GITLAB_PAT: "', `${b62(18)}4Z`, '"'),
    ],
    fp: [
      'path = "/usr/local/share/applications/gateway"',
      'pattern: "^[a-z0-9]{20,40}$"',
      "url_pat = 'https://example.com/a/b/c/d/e'",
      'pat = "${{ secrets.GITHUB_PAT }}"',
      'GITHUB_PAT=short9x',
      'compat = "abcdefghij0123456789abcdef"',
      'PAT=process.env.AZURE_DEVOPS_PAT_VALUE',
    ],
  },
};
