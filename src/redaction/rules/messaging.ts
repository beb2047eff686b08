import { decodeBase64, notPlaceholder } from '../filters.js';
import { contextualAssignment, prefixedToken, Specificity, type Rule } from '../rule.js';

// A Discord bot token is three base64url parts: the bot's user id (a
// snowflake of 17-20 decimal digits, base64-encoded), a timestamp and an
// HMAC. Base64 of decimal digits has a fixed rhythm: the first digit gives
// M, N or O and then D, T, j or z; the second digit one of ten letters; the
// third one of w-z and 0-5. Those four-character starts are the keywords
// (an id starting with 1-3 needs only three: `mta`, `mjq` are rare in text,
// while `nde`, `ode` are in every `index` and `node`). On the precision set
// the lower-case forms of all of them occur about 250 times per MiB, against
// some 27,000 hits of the other keywords.
const B64_DIGIT_PAIR = [...'AEIMQUYcgk'];
const B64_DIGIT_LAST = [...'wxyz012345'];
const DISCORD_ID_STARTS = [
  ...['MT', 'Mj', 'Mz'].flatMap((head) => B64_DIGIT_PAIR.map((c) => head + c)),
  ...['ND', 'NT', 'Nj', 'Nz', 'OD', 'OT'].flatMap((head) => B64_DIGIT_PAIR.flatMap((c) => B64_DIGIT_LAST.map((d) => head + c + d))),
];

function discordBotTokenByStructure(): Rule {
  return {
    id: 'discord-bot-token-structure',
    description: 'Discord bot token found by its structure alone: a base64url user id that decodes to 17-20 digits, a 6-character timestamp and a 27-38-character HMAC, dot-separated.',
    keywords: DISCORD_ID_STARTS,
    pattern: /(?<![A-Za-z0-9_.-])((?:M[Tjz]|N[DTjz]|O[DT])[A-Za-z0-9_-]{21,25}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,38})(?![A-Za-z0-9_.-])/,
    specificity: Specificity.structured,
    accept: (secret) => {
      const [id, , mac] = secret.split('.');
      const decoded = decodeBase64(id!);
      return decoded !== null && /^[1-9][0-9]{16,19}$/.test(decoded.toString('latin1')) && notPlaceholder(mac!);
    },
  };
}

export const messagingRules: readonly Rule[] = [
  prefixedToken({
    id: 'slack-bot-token',
    description: 'Slack bot token: xoxb-, one or two digit groups, then 18-40 characters.',
    keywords: ['xoxb-'],
    token: 'xoxb-[0-9]{8,14}-(?:[0-9]{8,14}-)?[A-Za-z0-9]{18,40}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'slack-user-token',
    description: 'Slack user token: xoxp- or xoxe-, three digit groups, then 28-34 characters.',
    keywords: ['xoxp-', 'xoxe-'],
    token: 'xox[pe]-[0-9]{8,14}-[0-9]{8,14}-[0-9]{8,14}-[A-Za-z0-9]{28,34}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'slack-app-token',
    description: 'Slack app-level token: xapp-, a digit, an app id, a digit group and a hex secret.',
    keywords: ['xapp-'],
    token: 'xapp-[0-9]-[A-Za-z0-9]{8,14}-[0-9]{8,16}-[A-Za-z0-9]{32,80}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'slack-config-access-token',
    description: 'Slack app configuration access token: xoxe.xoxb- or xoxe.xoxp-, a digit and ~160 characters.',
    keywords: ['xoxe.xox'],
    token: 'xoxe\\.xox[bp]-[0-9]-[A-Za-z0-9]{100,200}',
    entropy: 4,
  }),
  prefixedToken({
    id: 'slack-config-refresh-token',
    description: 'Slack app configuration refresh token: xoxe-, a digit and ~146 characters.',
    keywords: ['xoxe-'],
    token: 'xoxe-[0-9]-[A-Za-z0-9]{120,180}',
    entropy: 4,
  }),
  prefixedToken({
    id: 'slack-legacy-token',
    description: 'Legacy Slack workspace, refresh, session and OAuth tokens: xoxa-, xoxr-, xoxs-, xoxo- and digit groups.',
    keywords: ['xoxa-', 'xoxr-', 'xoxs-', 'xoxo-'],
    token: 'xox[aors]-[0-9]{1,14}(?:-[0-9]{1,14}){0,4}-[A-Za-z0-9]{8,64}',
    entropy: 2.5,
  }),
  {
    id: 'slack-webhook-url',
    description: 'Slack incoming webhook or workflow trigger URL on hooks.slack.com.',
    keywords: ['hooks.slack.com'],
    pattern: /((?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{40,160})(?![A-Za-z0-9_/+-])/,
    window: { before: 10, after: 200 },
    entropy: 3.5,
    specificity: Specificity.structured,
  },
  {
    id: 'discord-bot-token',
    description: 'Discord bot token: three dot-separated URL-safe parts near the word discord.',
    keywords: ['discord'],
    pattern: /(?<![A-Za-z0-9_-])([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_.-])/,
    window: { before: 200, after: 400 },
    entropy: 4,
    specificity: Specificity.contextual,
  },
  discordBotTokenByStructure(),
  {
    id: 'discord-webhook-url',
    description: 'Discord webhook token: the last path part of discord.com/api/webhooks/<id>/<token>.',
    keywords: ['discord.com/api/webhooks/', 'discordapp.com/api/webhooks/'],
    pattern: /discord(?:app)?\.com\/api\/webhooks\/[0-9]{15,21}\/([A-Za-z0-9_-]{60,72})(?![A-Za-z0-9_-])/,
    entropy: 4,
    specificity: Specificity.structured,
  },
  // Twitch's chat (IRC) login documents the password as `oauth:` and the
  // user access token; tokens are 30 lower-case letters and digits.
  {
    id: 'twitch-irc-oauth-token',
    description: 'Twitch user access token given as a chat (IRC) password: oauth: and 30 lower-case letters and digits.',
    keywords: ['oauth:'],
    pattern: /(?<![A-Za-z0-9_:-])oauth:([a-z0-9]{30})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
    specificity: Specificity.prefixed,
    service: 'Twitch',
    accept: (s) => /[0-9]/.test(s) && /[a-z]/.test(s) && notPlaceholder(s),
  },
  {
    id: 'telegram-bot-token',
    // The Bot API documentation's own example token has 34 characters
    // after the colon, tokens issued now 35.
    description: 'Telegram bot token: 5-16 digits, :A and 33-34 URL-safe characters.',
    keywords: [':A'],
    pattern: /(?<![A-Za-z0-9_:-])([0-9]{5,16}:A[A-Za-z0-9_-]{33,34})(?![A-Za-z0-9_-])/,
    window: { before: 17, after: 40 },
    entropy: 3.5,
    specificity: Specificity.prefixed,
  },
  {
    id: 'microsoft-teams-webhook-url',
    description: 'Microsoft Teams incoming webhook URL on webhook.office.com.',
    keywords: ['webhook.office.com'],
    pattern: /(https?:\/\/[A-Za-z0-9.-]{0,80}webhook\.office\.com\/webhookb2\/[A-Za-z0-9@-]{20,160}\/IncomingWebhook\/[A-Za-z0-9]{20,64}\/[A-Za-z0-9-]{20,64})(?![A-Za-z0-9-])/,
    window: { before: 100, after: 400 },
    entropy: 3.5,
    specificity: Specificity.structured,
  },
  prefixedToken({
    id: 'twilio-api-key',
    description: 'Twilio API key SID: SK and 32 hex characters.',
    keywords: ['SK'],
    token: 'SK[0-9a-fA-F]{32}',
    entropy: 3,
  }),
  contextualAssignment({
    id: 'twilio-auth-token',
    description: 'Twilio auth token or API secret: 32 hex characters assigned to a twilio name.',
    keywords: ['twilio'],
    name: 'twilio',
    value: '[0-9a-f]{32}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'sendgrid-api-key',
    description: 'SendGrid API key: SG., 22 characters, a dot and 43 characters.',
    keywords: ['SG.'],
    token: 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}',
    entropy: 4,
    // Three characters, but with the 22.43 two-dot structure no identifier has.
    strongPrefix: true,
  }),
  {
    id: 'mailgun-api-key',
    // Mailgun's own documentation writes the key in base 36 (`key-3ax6…`), not hex.
    description: 'Mailgun private API key: key- and 32 lower-case letters and digits near the word mailgun.',
    keywords: ['mailgun'],
    pattern: /(?<![A-Za-z0-9])(key-[0-9a-z]{32})(?![A-Za-z0-9])/,
    window: { before: 200, after: 300 },
    entropy: 3,
    specificity: Specificity.contextual,
  },
  {
    id: 'mailgun-webhook-signing-key',
    description: 'Mailgun webhook signing key: 32 hex, -, 8 hex, -, 8 hex near the word mailgun.',
    keywords: ['mailgun'],
    pattern: /(?<![A-Za-z0-9])([0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?![A-Za-z0-9])/,
    window: { before: 200, after: 300 },
    entropy: 3,
    specificity: Specificity.contextual,
  },
  {
    id: 'mailchimp-api-key',
    description: 'Mailchimp API key: 32 hex characters and a -usNN data-centre suffix.',
    keywords: ['-us'],
    pattern: /(?<![A-Za-z0-9])([0-9a-f]{32}-us[0-9]{1,2})(?![A-Za-z0-9])/,
    anchorBack: 32,
    entropy: 3,
    specificity: Specificity.prefixed,
  },
  prefixedToken({
    id: 'brevo-api-key',
    description: 'Brevo (Sendinblue) API or SMTP key: xkeysib- or xsmtpsib-, 64 hex, - and 16 characters.',
    keywords: ['xkeysib-', 'xsmtpsib-'],
    token: 'x(?:keysib|smtpsib)-[0-9a-f]{64}-[A-Za-z0-9]{16}',
    entropy: 3,
  }),
];
