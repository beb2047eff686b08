import { b62, b64, hex, mixedCaseLetters, uuid } from '../fake.js';
import { tp, type SampleTable } from './types.js';

// A credential known only by the name it is given: any service's name glued
// to key, token or secret, with an operator, a line break after one, or
// only spaces between it and a random-looking value.
export const contextSamples: SampleTable = {
  'credential-context': {
    tp: [
      tp('acmeKey = ', hex(32), ''),
      tp('ACMEKEY=', b62(32), '\n'),
      tp('acmekey: "', b62(40), '"'),
      tp('widgetcoToken ', b62(32), ''),
      tp('WIDGETCO_SECRET  ', hex(40), '\n'),
      tp("$config['acme.api.key'] => '", b62(24), "';"),
      tp('acmeApiKey:\n  "', b62(40), '",'),
      tp('acme_token:\\n    ', b62(36), '\\n'),
      tp('Your API key ', b62(30), ' is ready.'),
      tp('Authorization: token ', hex(40), ''),
      tp('acme-secret -> ', b62(20), ''),
      tp('acme secret ', b62(40), '\n'),
      tp('<settings><acmeKey>', b62(32), '</acmeKey></settings>'),
      tp('<acme-token>\n    ', hex(40), '\n</acme-token>'),
      tp('ACME_SESSION_TOKEN = ', `${b62(300)}${b64(60)}==`, '\n'),
      // Random letters without a digit: the case mix tells them from a name.
      tp('TRAVEL_API_KEY: ', mixedCaseLetters(40), '\n'),
      tp('<acmeKey>', `${mixedCaseLetters(16)}_${mixedCaseLetters(8)}`, '</acmeKey>'),
      tp('export ACME_TOKEN="', mixedCaseLetters(32), '"'),
      tp('ENV ACME_TOKEN ', mixedCaseLetters(24), '\n'),
    ],
    fp: [
      `keyboard = "${b62(32)}"`,
      `tokenizer: ${b62(32)}`,
      `key_down_event=${b62(20)}.${b62(9)}`,
      `sortKey: ${b62(24)}`,
      `acmeKeyId = "${b62(20)}"`,
      `token_url ${b62(32)}`,
      `publishable key: pk_live_${b62(24)}`,
      `"bucket_key": "SalesResults-1.2"`,
      'pub const X509_pubkey_st = struct_X509_pubkey_st;',
      `apiKey = ${uuid()}`,
      `commit_key ${hex(40)}`,
      `key ${b62(32)}`,
      `acmeToken ${hex(24)}`,
      `acmeToken ${b62(12)}abcdefghij`,
      `monkey = "${b62(32)}"`,
      `secret = getSecret1234567890123(name)`,
      `token = process.env.ACME_TOKEN_VALUE_1234`,
      `gpg key ${hex(40)}`,
      `<acmeKey>${b62(32)}<br/>`,
      `secret ${b62(40)}`,
      `acmeSecret ${b62(300)}`,
      `const pubkey256 = '${b64(43)}=';`,
      'return e.key=this.type===a.num||this.type===a.string',
      'cookie-set remember_me token123 --expires=1893456000',
      'webhookApiSecret: ZENDESK_WEBHOOK_API_SECRET_VALUE',
      'acmeKey: SandboxConfigurationS3BucketPolicy',
      'policyToken = "HTTPServerConfigurationHolder"',
      'accessKey: getAccessKeyFromTheVaultNow',
      'ENV ACME_TOKEN ReadFromTheSecretStoreAtStartup',
    ],
  },
};
