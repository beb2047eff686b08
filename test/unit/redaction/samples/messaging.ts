import { b62, b64url, digits, hex, lowerAlnum, upperAlnum, uuid } from '../fake.js';
import { tp, type SampleTable } from './types.js';

/** A Discord user id (a snowflake of `1 + more` digits starting with `first`), base64url-encoded as in a bot token. */
const discordId = (first: string, more = 18): string => Buffer.from(first + digits(more)).toString('base64url');

export const messagingSamples: SampleTable = {
  'slack-bot-token': {
    tp: [tp('SLACK_BOT_TOKEN=', `xoxb-${digits(12)}-${digits(13)}-${b62(24)}`), tp('token: ', `xoxb-${digits(12)}-${b62(24)}`)],
    fp: ['xoxb-xoxb-my-bot-token', 'xoxb-12345-abcd234', `xoxb-${'x'.repeat(11)}-${'x'.repeat(24)}`],
  },
  'slack-user-token': {
    tp: [tp('"user_token": "', `xoxp-${digits(11)}-${digits(12)}-${digits(13)}-${hex(32)}`, '"')],
    fp: [`xoxp-${'X'.repeat(10)}-${'X'.repeat(10)}-${'X'.repeat(11)}-${'X'.repeat(32)}`],
  },
  'slack-app-token': {
    tp: [tp('SLACK_APP_TOKEN=', `xapp-1-A0${upperAlnum(9)}-${digits(13)}-${hex(64)}`)],
    fp: ['xapp-1-short'],
  },
  'slack-config-access-token': {
    tp: [tp('"access_token": "', `xoxe.xoxp-1-${b62(160)}`, '"')],
    fp: ['xoxe.xoxp-1-RANDOMSTRINGHERE'],
  },
  'slack-config-refresh-token': {
    tp: [tp('"refresh_token": "', `xoxe-1-${b62(146)}`, '"')],
    fp: ['xoxe-1-xxx'],
  },
  'slack-legacy-token': {
    tp: [tp('token = ', `xoxs-${digits(10)}-${digits(10)}-${digits(10)}-${hex(10)}`)],
    fp: ['https://indieweb.org/images/2018-250-xoxo-indieweb-1.jpg', 'EXO-XOXO-teaser'],
  },
  'slack-webhook-url': {
    tp: [tp('SLACK_WEBHOOK=', `https://hooks.slack.com/services/T${upperAlnum(8)}/B${upperAlnum(8)}/${b62(24)}`)],
    fp: ['see https://hooks.slack.com/services/ for details'],
  },
  'discord-bot-token': {
    tp: [tp('DISCORD_BOT_TOKEN=', `M${b64url(25)}.${b64url(6)}.${b64url(38)}`)],
    fp: [`discord: M${b64url(10)}.x.y`, `M${b64url(25)}.${b64url(6)}.${b64url(38)} (no service named)`],
  },
  // By structure alone: the first part must decode to a snowflake id.
  'discord-bot-token-structure': {
    tp: [
      tp('client.run("', `${discordId('1')}.${b64url(6)}.${b64url(38)}`, '")'),
      tp('', `${discordId('2')}.${b64url(6)}.${b64url(27)}`, '\n'),
      tp('token ', `${discordId('3', 16)}.${b64url(6)}.${b64url(38)}`),
      tp('"', `${discordId('4', 17)}.${b64url(6)}.${b64url(38)}`, '"'),
      tp('bot.run(', `${discordId('7', 17)}.${b64url(7)}.${b64url(27)}`, ')'),
      tp('', `${discordId('9', 17)}.${b64url(6)}.${b64url(38)}`),
    ],
    fp: [
      `MT${b64url(22)}.${b64url(6)}.${b64url(38)}`,
      `${discordId('1')}.${b64url(6)}.${b64url(20)}`,
      'MTAwMDAwMDAwMDAwMDAwMDAw.Y6aBcD.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'The MTA relays mail; MTU is 1500.',
      `const NDEx = ${b64url(24)}.${b64url(6)}.${b64url(30)}`,
      `${Buffer.from(`4${digits(17)}x`).toString('base64url')}.${b64url(6)}.${b64url(38)}`,
    ],
  },
  'discord-webhook-url': {
    tp: [tp(`https://discord.com/api/webhooks/${digits(18)}/`, b64url(68))],
    fp: ['https://discord.com/api/webhooks/123/abc'],
  },
  'telegram-bot-token': {
    // 35 characters after the colon, and 34 as in the Bot API documentation's example
    tp: [tp('TELEGRAM_BOT_TOKEN=', `${digits(10)}:A${b64url(34)}`), tp('bot = Bot("', `${digits(9)}:A${b64url(33)}`, '")')],
    fp: ['type="clm75030844:AgencyIdentificationCodeContentType"', `${digits(17)}:A${b64url(34)}`, `${digits(4)}:A${b64url(34)}`, `${digits(10)}:A${b64url(32)}`, `${digits(10)}:A${b64url(35)}`],
  },
  'twitch-irc-oauth-token': {
    tp: [tp('PASS oauth:', `${lowerAlnum(29)}7`, '\r\nNICK mybot'), tp("const opts = { identity: { username: 'bot', password: 'oauth:", `q${lowerAlnum(28)}4`, "' } };")],
    fp: [
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'scope=oauth:client_credentials_flow_for_service',
      'oauth:authorizationcoderefreshhandle',
      `oauth:${lowerAlnum(29)}`,
      'PASS oauth:aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1',
    ],
  },
  'microsoft-teams-webhook-url': {
    tp: [tp('TEAMS_WEBHOOK=', `https://contoso.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${hex(32)}/${uuid()}`)],
    fp: ['https://contoso.webhook.office.com/webhookb2/'],
  },
  'twilio-api-key': {
    tp: [tp('TWILIO_API_KEY=', `SK${hex(32)}`)],
    fp: [`TASK${hex(32)}`, `SK${hex(31)}`],
  },
  'twilio-auth-token': {
    tp: [tp('TWILIO_AUTH_TOKEN=', hex(32))],
    fp: ['twilio_region = "us1"', `twilio_auth_token = ${'0'.repeat(32)}`],
  },
  'sendgrid-api-key': {
    tp: [tp('SENDGRID_API_KEY=', `SG.${b64url(22)}.${b64url(43)}`)],
    fp: [`SG.${b64url(10)}`],
  },
  'mailgun-api-key': {
    tp: [tp('MAILGUN_API_KEY=', `key-${hex(32)}`), tp("mailgun.client({ username: 'api', key: '", `key-${lowerAlnum(31)}x`, "' })")],
    fp: [`cache key-${hex(32)}`, `mailgun cache key-${lowerAlnum(31)}`],
  },
  'mailgun-webhook-signing-key': {
    tp: [tp('mailgun webhook signing key: ', `${hex(32)}-${hex(8)}-${hex(8)}`)],
    fp: [`checksum ${hex(32)}-${hex(8)}-${hex(8)}`],
  },
  'mailchimp-api-key': {
    tp: [tp('MAILCHIMP_API_KEY=', `${hex(32)}-us21`)],
    fp: ['Accept-Language: en-us12', `${hex(31)}-us21`],
  },
  'brevo-api-key': {
    tp: [tp('BREVO_API_KEY=', `xkeysib-${hex(64)}-${b62(16)}`)],
    fp: [`xkeysib-${hex(10)}`],
  },
};
