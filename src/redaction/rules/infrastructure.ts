import { notPlaceholder } from '../filters.js';
import { contextualAssignment, prefixedToken, Specificity, type Rule } from '../rule.js';

function digitalOcean(id: string, prefix: string, what: string): Rule {
  return prefixedToken({
    id,
    description: `DigitalOcean ${what}: ${prefix} and 64 hex characters.`,
    keywords: [prefix],
    token: `${prefix}[0-9a-f]{64}`,
    entropy: 3,
  });
}

export const infrastructureRules: readonly Rule[] = [
  // Vercel's identifiable credentials (Vercel changelog, "Introducing new
  // token formats and secret scanning"): vcp_ personal access tokens, vci_
  // integration tokens, vca_ app access tokens, vcr_ app refresh tokens and
  // vck_ API keys. Vercel does not publish the body's length; 24 characters
  // is the shortest token it has issued (the legacy format).
  prefixedToken({
    id: 'vercel-prefixed-token',
    description: 'Vercel token or API key of the prefixed formats: vcp_, vci_, vca_, vcr_ or vck_ and 24-128 characters.',
    keywords: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
    token: 'vc[pciark]_[A-Za-z0-9]{24,128}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'vault-service-token',
    description: 'HashiCorp Vault service token: hvs. and 90-120 characters.',
    keywords: ['hvs.'],
    token: 'hvs\\.[A-Za-z0-9_-]{90,120}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'vault-batch-token',
    description: 'HashiCorp Vault batch token: hvb. and 138-300 characters.',
    keywords: ['hvb.'],
    token: 'hvb\\.[A-Za-z0-9_-]{138,300}',
    entropy: 3.5,
  }),
  // Vault 1.10 renamed the recovery token's r. prefix to hvr. and, unlike
  // the service token's, left its length as it was (24 characters for the
  // old prefixes).
  prefixedToken({
    id: 'vault-recovery-token',
    description: 'HashiCorp Vault recovery token: hvr. and 24-120 characters.',
    keywords: ['hvr.'],
    token: 'hvr\\.[A-Za-z0-9_-]{24,120}',
    entropy: 3.5,
  }),
  {
    id: 'vault-legacy-token',
    description: 'Legacy HashiCorp Vault token: s. and 24 characters, near the word vault.',
    keywords: ['vault'],
    pattern: /(?<![A-Za-z0-9_.$-])(s\.[A-Za-z0-9]{24})(?![A-Za-z0-9_.-])/,
    window: { before: 200, after: 300 },
    entropy: 3.5,
    specificity: Specificity.contextual,
    accept: (s) => /[0-9]/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s) && notPlaceholder(s),
  },
  {
    id: 'terraform-cloud-token',
    description: 'HCP Terraform / Terraform Enterprise API token: 14 characters, .atlasv1. and 60-70 characters.',
    keywords: ['.atlasv1.'],
    pattern: /(?<![A-Za-z0-9_-])([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])/,
    anchorBack: 14,
    entropy: 3.5,
    specificity: Specificity.prefixed,
  },
  prefixedToken({
    id: 'databricks-token',
    description: 'Databricks personal access token: dapi and 32 hex characters (and an optional -N suffix).',
    keywords: ['dapi'],
    token: 'dapi[0-9a-f]{32}(?:-[0-9])?',
    entropy: 3,
  }),
  digitalOcean('digitalocean-pat', 'dop_v1_', 'personal access token'),
  digitalOcean('digitalocean-oauth-token', 'doo_v1_', 'OAuth access token'),
  digitalOcean('digitalocean-refresh-token', 'dor_v1_', 'OAuth refresh token'),
  prefixedToken({
    id: 'doppler-token',
    description: 'Doppler token: dp.pt., dp.st.<config>., dp.ct., dp.sa., dp.scim. or dp.audit. and 40-44 characters.',
    keywords: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    token: 'dp\\.(?:pt|st(?:\\.[a-z0-9_-]{1,40})?|ct|sa|scim|audit)\\.[A-Za-z0-9]{40,44}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'onepassword-service-account-token',
    description: '1Password service account token: ops_eyJ and 250 or more base64 characters.',
    keywords: ['ops_eyJ'],
    token: 'ops_eyJ[A-Za-z0-9+/=_-]{250,8192}',
    entropy: 4,
  }),
  prefixedToken({
    id: 'onepassword-secret-key',
    description: '1Password account Secret Key: A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX.',
    keywords: ['A3-'],
    token: 'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'pulumi-access-token',
    description: 'Pulumi access token: pul- and 40 hex characters.',
    keywords: ['pul-'],
    token: 'pul-[0-9a-f]{40}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'cloudflare-api-token',
    description: 'Cloudflare API token (new format): cfat_, cfut_ or cfk_, 40 characters and 8 hex.',
    keywords: ['cfat_', 'cfut_', 'cfk_'],
    token: 'cf(?:at|ut|k)_[A-Za-z0-9]{40}[0-9a-f]{8}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'cloudflare-legacy-api-token',
    description: 'Cloudflare API token (legacy format): 40 characters assigned to a cloudflare name.',
    keywords: ['cloudflare', 'cf_api', 'cf-api'],
    name: 'cloudflare|cf[_-]api',
    value: '[A-Za-z0-9_-]{40}',
    entropy: 3.5,
  }),
  contextualAssignment({
    id: 'cloudflare-global-api-key',
    description: 'Cloudflare Global API key: 37 hex characters assigned to a cloudflare name.',
    keywords: ['cloudflare', 'cf_api', 'cf-api'],
    name: 'cloudflare|cf[_-]api',
    value: '[0-9a-f]{37}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'cloudflare-origin-ca-key',
    description: 'Cloudflare Origin CA key: v1.0-, 24 hex, - and 146 hex characters.',
    keywords: ['v1.0-'],
    token: 'v1\\.0-[0-9a-f]{24}-[0-9a-f]{146}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'flyio-token',
    description: 'Fly.io macaroon or OAuth token: fm1a_, fm1r_, fm2_ or fo1_ and a base64 body.',
    keywords: ['fm1a_', 'fm1r_', 'fm2_', 'fo1_'],
    token: '(?:fm1[ar]|fm2|fo1)_[A-Za-z0-9+/=_-]{40,4096}',
    entropy: 4,
  }),
  prefixedToken({
    id: 'tailscale-key',
    description: 'Tailscale auth, API or OAuth client key: tskey-<kind>-<id>-<secret>.',
    keywords: ['tskey-'],
    token: 'tskey-[a-z]{3,8}-[A-Za-z0-9]{6,30}-[A-Za-z0-9]{20,64}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'harness-access-token',
    description: 'Harness personal or service-account token: pat. or sat., account id, 24 and 20 characters.',
    keywords: ['pat.', 'sat.'],
    token: '[ps]at\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'netlify-access-token',
    description: 'Netlify personal access token: nfp_ and 36 characters.',
    keywords: ['nfp_'],
    token: 'nfp_[A-Za-z0-9]{36}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'planetscale-token',
    description: 'PlanetScale service token, OAuth token or database password: pscale_tkn_, pscale_oauth_ or pscale_pw_.',
    keywords: ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'],
    token: 'pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'scalingo-api-token',
    description: 'Scalingo API token: tk-us- and 48 characters.',
    keywords: ['tk-us-'],
    token: 'tk-us-[A-Za-z0-9_-]{48}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'prefect-api-key',
    description: 'Prefect Cloud API key: pnu_ and 36 characters.',
    keywords: ['pnu_'],
    token: 'pnu_[A-Za-z0-9]{36}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'infracost-api-token',
    description: 'Infracost API token: ico- and 32 characters.',
    keywords: ['ico-'],
    token: 'ico-[A-Za-z0-9]{32}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'octopus-deploy-api-key',
    description: 'Octopus Deploy API key: API- and 26 upper-case characters or digits.',
    keywords: ['API-'],
    token: 'API-[A-Z0-9]{26}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'settlemint-token',
    description: 'SettleMint personal, application or service access token: sm_pat_, sm_aat_ or sm_sat_ and 16 characters.',
    keywords: ['sm_pat_', 'sm_aat_', 'sm_sat_'],
    token: 'sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}',
    entropy: 3,
  }),
  contextualAssignment({
    id: 'okta-api-token',
    description: 'Okta API token: 00 and 40 characters assigned to an okta name.',
    keywords: ['okta'],
    name: 'okta',
    value: '00[A-Za-z0-9_-]{40}',
    entropy: 3.5,
  }),
];
