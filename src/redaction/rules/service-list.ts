// Which service each rule is for, and the list of supported services that
// docs/redaction.md carries (generated: scripts/gen-redaction-doc.mjs writes
// it, a unit test checks it is current). Rules written as tables carry
// their service; the older families are named here by id prefix.
import type { Rule } from '../rule.js';

const BY_PREFIX: readonly (readonly [prefix: string, service: string])[] = [
  ['gw-caller-token', 'this gateway (caller tokens)'],
  ['aws-', 'AWS'],
  ['gcp-', 'Google Cloud'],
  ['google-', 'Google OAuth'],
  ['azure-openai', 'Azure OpenAI'],
  ['azure-devops', 'Azure DevOps'],
  ['azure-storage', 'Azure Storage'],
  ['azure-sas', 'Azure Storage'],
  ['azure-ad', 'Azure AD'],
  ['alibaba-', 'Alibaba Cloud'],
  ['yandex-', 'Yandex Cloud'],
  ['github-', 'GitHub'],
  ['gitlab-', 'GitLab'],
  ['atlassian-', 'Atlassian'],
  ['bitbucket-', 'Bitbucket'],
  ['circleci-', 'CircleCI'],
  ['travis-', 'Travis CI'],
  ['drone-', 'Drone'],
  ['sourcegraph-', 'Sourcegraph'],
  ['buildkite-', 'Buildkite'],
  ['slack-', 'Slack'],
  ['discord-', 'Discord'],
  ['telegram-', 'Telegram'],
  ['microsoft-teams', 'Microsoft Teams'],
  ['twilio-', 'Twilio'],
  ['sendgrid-', 'SendGrid'],
  ['mailgun-', 'Mailgun'],
  ['mailchimp-', 'Mailchimp'],
  ['brevo-', 'Brevo'],
  ['stripe-', 'Stripe'],
  ['square-', 'Square'],
  ['braintree-', 'Braintree'],
  ['flutterwave-', 'Flutterwave'],
  ['plaid-', 'Plaid'],
  ['shopify-', 'Shopify'],
  ['easypost-', 'EasyPost'],
  ['shippo-', 'Shippo'],
  ['anthropic-', 'Anthropic'],
  ['openai-', 'OpenAI'],
  ['openrouter-', 'OpenRouter'],
  ['deepseek-', 'DeepSeek'],
  ['huggingface-', 'Hugging Face'],
  ['groq-', 'Groq'],
  ['xai-', 'xAI'],
  ['perplexity-', 'Perplexity'],
  ['replicate-', 'Replicate'],
  ['langsmith-', 'LangSmith'],
  ['pinecone-', 'Pinecone'],
  ['nvidia-', 'NVIDIA'],
  ['tavily-', 'Tavily'],
  ['cohere-', 'Cohere'],
  ['mistral-', 'Mistral'],
  ['npm-', 'npm'],
  ['npmrc-', 'npm'],
  ['pypi-', 'PyPI'],
  ['rubygems-', 'RubyGems'],
  ['nuget-', 'NuGet'],
  ['dockerhub-', 'Docker Hub'],
  ['docker-config', 'Docker registries (config.json)'],
  ['clojars-', 'Clojars'],
  ['jfrog-', 'JFrog Artifactory'],
  ['sidekiq-', 'Sidekiq'],
  ['crates-io', 'crates.io'],
  ['postgres-', 'PostgreSQL'],
  ['mysql-', 'MySQL'],
  ['mongodb-', 'MongoDB'],
  ['redis-', 'Redis'],
  ['amqp-', 'RabbitMQ (AMQP)'],
  ['mssql-', 'SQL Server'],
  ['clickhouse-', 'ClickHouse'],
  ['ldap-', 'LDAP'],
  ['smtp-', 'SMTP'],
  ['ftp-', 'FTP / SFTP'],
  ['cloudinary-', 'Cloudinary'],
  ['vault-', 'HashiCorp Vault'],
  ['terraform-', 'Terraform Cloud'],
  ['databricks-', 'Databricks'],
  ['digitalocean-', 'DigitalOcean'],
  ['doppler-', 'Doppler'],
  ['onepassword-', '1Password'],
  ['pulumi-', 'Pulumi'],
  ['cloudflare-', 'Cloudflare'],
  ['flyio-', 'Fly.io'],
  ['tailscale-', 'Tailscale'],
  ['harness-', 'Harness'],
  ['netlify-', 'Netlify'],
  ['planetscale-', 'PlanetScale'],
  ['scalingo-', 'Scalingo'],
  ['prefect-', 'Prefect'],
  ['infracost-', 'Infracost'],
  ['octopus-', 'Octopus Deploy'],
  ['settlemint-', 'SettleMint'],
  ['okta-', 'Okta'],
  ['datadog-', 'Datadog'],
  ['new-relic', 'New Relic'],
  ['grafana-', 'Grafana'],
  ['sentry-', 'Sentry'],
  ['dynatrace-', 'Dynatrace'],
  ['sumologic-', 'Sumo Logic'],
  ['notion-', 'Notion'],
  ['linear-', 'Linear'],
  ['airtable-', 'Airtable'],
  ['asana-', 'Asana'],
  ['figma-', 'Figma'],
  ['hubspot-', 'HubSpot'],
  ['typeform-', 'Typeform'],
  ['dropbox-', 'Dropbox'],
  ['postman-', 'Postman'],
  ['readme-', 'ReadMe'],
  ['contentful-', 'Contentful'],
  ['mapbox-', 'Mapbox'],
  ['adafruit-', 'Adafruit IO'],
  ['adobe-', 'Adobe'],
  ['heroku-', 'Heroku'],
  ['supabase-', 'Supabase'],
  ['facebook-', 'Meta'],
  ['twitter-', 'X (Twitter)'],
  ['intra42-', '42 Intra'],
  ['sonarqube-', 'SonarQube'],
  ['frameio-', 'Frame.io'],
  ['kubernetes-', 'Kubernetes'],
  ['kubeconfig-', 'Kubernetes'],
  ['openshift-', 'OpenShift'],
  ['registry-', 'Container registries (docker/podman/helm login)'],
  ['vercel-', 'Vercel'],
];

/** The service a rule is for, or null for formats that belong to no one service (PEM keys, JWTs, generic rules). */
export function serviceOf(rule: Rule): string | null {
  if (rule.service !== undefined) return rule.service;
  let best: string | null = null;
  let length = 0;
  for (const [prefix, service] of BY_PREFIX) {
    if (rule.id.startsWith(prefix) && prefix.length > length) {
      best = service;
      length = prefix.length;
    }
  }
  return best;
}

/** The Markdown list of supported services and formats, generated from the rules. */
export function renderServiceList(rules: readonly Rule[]): string {
  const byService = new Map<string, string[]>();
  const formats: string[] = [];
  for (const rule of rules) {
    const service = serviceOf(rule);
    if (service === null) formats.push(rule.id);
    else byService.set(service, [...(byService.get(service) ?? []), rule.id]);
  }
  const services = [...byService.keys()].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
  const lines = [
    `${rules.length} rules: ${services.length} services with rules of their own, and ${formats.length} rules for formats and shapes that belong to no one service.`,
    '',
    '| service | rule ids |',
    '|---|---|',
    ...services.map(
      (s) =>
        `| ${s.replace(/\|/g, '\\|')} | ${byService
          .get(s)!
          .map((id) => `\`${id}\``)
          .join(', ')} |`,
    ),
    '',
    `Formats and shapes: ${formats.map((id) => `\`${id}\``).join(', ')}.`,
  ];
  return lines.join('\n');
}
