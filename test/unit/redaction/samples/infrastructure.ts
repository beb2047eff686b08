import { b62, b64, b64url, hex, upperAlnum } from '../fake.js';
import { tp, type SampleTable, type RuleSamples } from './types.js';

const digitalOcean = (prefix: string): RuleSamples => ({
  tp: [tp('DIGITALOCEAN_TOKEN=', `${prefix}${hex(64)}`)],
  fp: [`${prefix}${hex(32)}`],
});

export const infrastructureSamples: SampleTable = {
  'vault-recovery-token': {
    tp: [tp('VAULT_TOKEN=', `hvr.${b62(24)}`), tp('"token": "', `hvr.${b64url(96)}`, '"')],
    fp: [`hvr.${'x'.repeat(24)}`, `hvr.${b62(16)}`, `ahvr.${b62(24)}`],
  },
  'vercel-prefixed-token': {
    tp: [tp('VERCEL_TOKEN=', `vcp_${b62(48)}`), tp('"apiKey": "', `vck_${b62(32)}`, '"'), tp('refresh_token=', `vcr_${b62(64)}`, '&')],
    fp: [`vcp_${'x'.repeat(32)}`, `vcp_${b62(12)}`, `avcp_${b62(40)}`, `vcx_${b62(40)}`],
  },
  'vault-service-token': {
    tp: [tp('VAULT_TOKEN=', `hvs.${b64url(95)}`)],
    fp: [`hvs.${'x'.repeat(95)}`, `hvs.${b62(20)}`],
  },
  'vault-batch-token': {
    tp: [tp('X-Vault-Token: ', `hvb.${b64url(150)}`)],
    fp: [`hvb.${b64url(20)}`],
  },
  'vault-legacy-token': {
    tp: [tp('VAULT_TOKEN=', `s.${b62(24)}`)],
    fp: ['vault: s.THISSTRINGISALLUPPERCASE', 'vault: s.AcceptanceTimeoutSeconds '],
  },
  'terraform-cloud-token': {
    tp: [tp('token = "', `${b62(14)}.atlasv1.${b64url(67)}`, '"')],
    fp: [`token = "${'x'.repeat(14)}.atlasv1.${'x'.repeat(67)}"`],
  },
  'databricks-token': {
    tp: [tp('DATABRICKS_TOKEN=', `dapi${hex(32)}`), tp('token = ', `dapi${hex(32)}-2`)],
    fp: [`dapi${hex(8)}`],
  },
  'digitalocean-pat': digitalOcean('dop_v1_'),
  'digitalocean-oauth-token': digitalOcean('doo_v1_'),
  'digitalocean-refresh-token': digitalOcean('dor_v1_'),
  'doppler-token': {
    tp: [tp('DOPPLER_TOKEN=', `dp.pt.${b62(43)}`), tp('token: ', `dp.st.prd.${b62(43)}`)],
    fp: [`dp.pt.${b62(10)}`],
  },
  'onepassword-service-account-token': {
    tp: [tp('OP_SERVICE_ACCOUNT_TOKEN=', `ops_eyJ${b64(320)}`)],
    fp: ['fn::secret: ops_eyJzaWduSW5B..[Redacted]'],
  },
  'onepassword-secret-key': {
    tp: [tp('Secret Key: ', `A3-${upperAlnum(6)}-${upperAlnum(6)}-${upperAlnum(5)}-${upperAlnum(5)}-${upperAlnum(5)}-${upperAlnum(5)}`)],
    fp: ['A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX'],
  },
  'pulumi-access-token': {
    tp: [tp('PULUMI_ACCESS_TOKEN=', `pul-${hex(40)}`)],
    fp: [`vipul-${hex(64)}.png`, `pul-${hex(20)}`],
  },
  'cloudflare-api-token': {
    tp: [tp('CLOUDFLARE_API_TOKEN=', `cfat_${b62(40)}${hex(8)}`)],
    fp: [`cfat_${b62(20)}`],
  },
  'cloudflare-legacy-api-token': {
    tp: [tp('CLOUDFLARE_API_TOKEN=', b64url(40))],
    fp: ['cloudflare_zone = example.com', `cloudflare_api_token = ${'x'.repeat(40)}`],
  },
  'cloudflare-global-api-key': {
    tp: [tp('CLOUDFLARE_API_KEY=', hex(37))],
    fp: [`cloudflare_account_id = ${hex(32)}`],
  },
  'cloudflare-origin-ca-key': {
    tp: [tp('CF_ORIGIN_CA_KEY=', `v1.0-${hex(24)}-${hex(146)}`)],
    fp: [`v1.0-${hex(24)}-${hex(20)}`],
  },
  'flyio-token': {
    tp: [tp('FLY_API_TOKEN="FlyV1 ', `fm2_${b64(150)}`, '"'), tp('token ', `fo1_${b64url(43)}`)],
    fp: [`fo1_${'x'.repeat(43)}`],
  },
  'tailscale-key': {
    tp: [tp('TS_AUTHKEY=', `tskey-auth-k${b62(12)}-${b62(32)}`)],
    fp: ['tskey-auth-short'],
  },
  'harness-access-token': {
    tp: [tp('HARNESS_API_KEY=', `pat.${b64url(22)}.${b62(24)}.${b62(20)}`)],
    fp: ['pat.one.two'],
  },
  'netlify-access-token': {
    tp: [tp('NETLIFY_AUTH_TOKEN=', `nfp_${b62(36)}`)],
    fp: [`nfp_${b62(10)}`],
  },
  'planetscale-token': {
    tp: [tp('PLANETSCALE_SERVICE_TOKEN=', `pscale_tkn_${b64url(43)}`), tp('password: ', `pscale_pw_${b64url(43)}`)],
    fp: [`pscale_tkn_${b62(10)}`],
  },
  'scalingo-api-token': {
    tp: [tp('SCALINGO_API_TOKEN=', `tk-us-${b64url(48)}`)],
    fp: [`tk-us-${b62(10)}`],
  },
  'prefect-api-key': {
    tp: [tp('PREFECT_API_KEY=', `pnu_${b62(36)}`)],
    fp: [`PREFECT_API_KEY = "pnu_${'X'.repeat(36)}"`],
  },
  'infracost-api-token': {
    tp: [tp('INFRACOST_API_KEY=', `ico-${b62(32)}`)],
    fp: [`video_box.ico-${hex(32)}.png`, `ico-${'X'.repeat(32)}`],
  },
  'octopus-deploy-api-key': {
    tp: [tp('OCTOPUS_API_KEY=', `API-${upperAlnum(26)}`)],
    fp: [`https://example.notion.site/API-${upperAlnum(32)}`],
  },
  'settlemint-token': {
    tp: [tp('SETTLEMINT_ACCESS_TOKEN=', `sm_pat_${b62(16)}`)],
    fp: ['nonMatchingToken := "sm_sat_kozoks24yy"'],
  },
  'okta-api-token': {
    tp: [tp('OKTA_API_TOKEN=', `00${b64url(40)}`)],
    fp: [`rookTable = 00${b64url(40)}`, `oktaKey = ${'0'.repeat(36)}TUVWXY`],
  },
};
