// Labelled samples written by other projects (bench/redaction-sets/published,
// SOURCES.md there), split by source project: rules may be tuned on the
// TUNING projects only; the HELD_OUT ones are scored and never tuned on.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDINGS, copies } from './score.mjs';

const here = resolve(dirname(fileURLToPath(import.meta.url)), 'published');

export const TUNING = ['noseyparker', 'whispers', 'trivy', 'checkov'];
export const HELD_OUT = ['kingfisher', 'detect-secrets', 'secretlint', 'ripsecrets'];

// Services in wide use, named by the source rule's service stem (the second
// part of a Nosey Parker or Kingfisher rule id, the plugin of detect-secrets).
// Fixed from the list of stems before any sample was scored.
const WIDELY = new Set(
  (
    'anthropic artifactory asana atlassian auth0 aws aws_key azure azure_storage_key azureopenai azuresearch azurestorage bitbucket ' +
    'circleci cloudflare confluent contentful databricks datadog digitalocean discord dockerhub doppler dropbox dynatrace facebook ' +
    'fastly figma gcp github github_token gitlab gitlab_token google grafana groq hashicorp heroku huggingface ibm_cloud_iam ' +
    'ibm_cos_hmac jenkins jira linear linkedin mailchimp mailchimp_key mailgun mongodb msteams netlify newrelic notion npm nuget okta ' +
    'openai pagerduty paypal postman pulumi pypi pypi_token rubygems salesforce segment sendgrid sentry shopify slack snowflake snyk ' +
    'sonarqube sonarcloud splunk square squareup stripe stripe_key supabase telegram telegram_token terraform twilio twitch twitter ' +
    'vercel xai smartsheets'
  ).split(' '),
);

// A value typed as a stand-in rather than generated: a run of five or more
// of one character (`xxxxx`, `ZZZZZ`, `00000`) or an ascending run of eight
// (`abcdefgh`, `12345678`). Random keys of any alphabet almost never hold
// either. Written here, apart from the rules' own filters, so that the
// split of the figures below does not depend on the code it measures. For a
// sample labelled by line only (detect-secrets), its longest token is judged.
export function placeholderShaped(value) {
  if (/(.)\1{4}/.test(value)) return true;
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) + 1 && /[A-Za-z0-9]/.test(value[i]) ? run + 1 : 1;
    if (run >= 8) return true;
  }
  return false;
}

function shapedSample(s) {
  const values = s.secrets.length > 0 ? s.secrets : [(s.text.match(/[A-Za-z0-9+/=_.-]{8,}/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? ''];
  return values.some(placeholderShaped);
}

export function loadSource(name) {
  return readFileSync(resolve(here, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l, index) => ({ ...JSON.parse(l), index }));
}

const add = (m, k, ok) => {
  const t = m.get(k) ?? { ok: 0, n: 0 };
  t.n++;
  if (ok) t.ok++;
  m.set(k, t);
};

/**
 * Each sample is sent once in every body embedding of score.mjs (message
 * text, tool_result, tool_use input, JSON in a tool_result string, system
 * prompt). A positive with labelled secrets counts when every copy of every
 * secret is inside a reported span; detect-secrets and ripsecrets label a
 * line (or a file) only, so there a positive counts when something in it was
 * redacted. A negative
 * counts when nothing was.
 */
export function scoreSource(name, redact) {
  const rows = loadSource(name);
  const r = { positives: { ok: 0, n: 0 }, widely: { ok: 0, n: 0 }, widelyRandom: { ok: 0, n: 0 }, negatives: { ok: 0, n: 0 }, byService: new Map(), misses: [], falsePositives: [] };
  for (const s of rows) {
    let ok = true;
    const fired = new Set();
    for (const e of EMBEDDINGS) {
      const input = e.build(s.text);
      const out = redact(input);
      for (const f of out.findings) fired.add(f.ruleId);
      if (s.kind === 'fp') ok &&= out.findings.length === 0;
      else if (s.secrets.length > 0) {
        const c = copies(input, out.findings, s.secrets, e.escape);
        ok &&= c.total > 0 && c.gone === c.total;
      } else ok &&= out.findings.length > 0;
    }
    if (s.kind === 'fp') {
      r.negatives.n++;
      if (ok) r.negatives.ok++;
      else r.falsePositives.push({ index: s.index, rule: s.rule, found: [...fired] });
      continue;
    }
    r.positives.n++;
    if (ok) r.positives.ok++;
    if (WIDELY.has(s.service)) {
      r.widely.n++;
      if (ok) r.widely.ok++;
      if (!shapedSample(s)) {
        r.widelyRandom.n++;
        if (ok) r.widelyRandom.ok++;
      }
    }
    add(r.byService, s.service, ok);
    if (!ok) r.misses.push({ index: s.index, rule: s.rule, found: [...fired] });
  }
  return r;
}
