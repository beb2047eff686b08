import { b62, hex, mixedCaseLetters } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const genericSamples: SampleTable = {
  'generic-api-key': {
    tp: [
      tp('const paymentToken = "', b62(32), '";'),
      tp('<apiToken>\n    ', b62(32), '\n</apiToken>'),
      tp('SERVICE_KEY=', b62(32)),
      tp('System.setProperty("WEBHOOK_SECRET", "', `${b62(20)}&${b62(8)}`, '")'),
      tp('buildConfigField "String", "MAPS_API_KEY", "\\"', hex(32), '\\""'),
      tp("buildConfigField('String', 'API_KEY', '\"", b62(32), '"\')'),
      tp("resValue 'string', 'google_api_key', '", b62(32), "'"),
      tp('CFLAGS += -DAPI_KEY=\\"', b62(32), '\\"'),
      tp('{"client_secret": "', hex(64), '"}'),
    ],
    fp: [
      'max_tokens = 1024',
      "access_token_url = 'https://github.com/login/oauth/access_token'",
      'tokenizer = AutoTokenizer.from_pretrained("gpt2-medium-v2")',
      'secret = process.env.APP_SECRET',
      'notes = "Maven - io.jsonwebtoken:jjwt-jackson-0.11.2"',
      'publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
      'keyVaultToStoreSecrets: cmp2-qat-1208358310',
      '"credentialId": "B9mTcFSck2LzJO2S3ols63",',
      `primaryKey=${b62(30)}`,
      'csrf-token=Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7+V4eUrLfpuyOuxmiW9rhROG/Whikle15syazJOkrjJa3U2AbhIvUw==',
      'const token = "ADD_YOUR_HUGGING_FACE_TOKEN_HERE"',
      'this.credentials = callCredentials ?? call_credentials_1.CallCredentials.createEmpty();',
      'lastSignificantToken = "?InterpolationInJSX";',
      'betas: `token-counting-2024-11-01`, `token-efficient-tools-2025-02-19`',
      "const token = existing?.['access_token'];",
      'exports.SOCKS5_NO_ACCEPTABLE_AUTH = SOCKS5_NO_ACCEPTABLE_AUTH;',
      'apiKey: `key-${i}-secret-${j}`',
      `paths: ['secret', '${b62(24)}']`,
      `fields "String", "API_KEY", "${b62(24)}"`,
      'API_KEY = "\\"${API_KEY}\\""',
      'message_token_here_1007: "在此处应为标记令牌"',
      'if (lastToken.unterminated || !JSON_NUMBER.test(lastToken.value))',
    ],
  },
  'generic-password': {
    tp: [
      tp('DB_PASSWORD=', `q8Vt!${b62(10)}`),
      tp('password: "', `${b62(12)}#`, '"'),
      tp('DB_PASSWORD = "\\"', `${b62(12)}#`, '\\""'),
      tp('<password>', `${b62(14)}9`, '</password>'),
      // letters only, with a random string's case mix
      tp('<user name="ci" password="', mixedCaseLetters(20), '" roles="build" />'),
      tp('password = "', `/${b62(8)}/${b62(6)}1`, '"'),
    ],
    fp: [
      'password: ${DB_PASSWORD}',
      'password = "changeme"',
      'password_min_length = 12345678',
      'passwordField.setText(hashedPassword)',
      'administrator_login_password = var.db_password',
      'password = "rootpasswd"',
      "paths: ['password', 'secrets.*.value']",
      // UI text: a word and the punctuation of a label or sentence
      '"one_time_password": "Engangskode:",',
      'reset_password: Passwort.',
      'user: { name: "john", password: "secret123" }',
      'password: `secret${i}`,',
      'password = "ThisIsTheDefaultPassword"',
      // code around a name, not a value given to it
      'this.resetPassword = "#reset-password";',
      '"/docs/reset-password":"/docs/enterprise@2.1/auth"',
      `post '/reset-password' => "accounts/passwords#create"`,
      'passwordHint:"Password:",rememberLabel:"Keep me signed in:"',
      `- echo 'export DB_PASSWORD="'$CI_DB_PASSWORD'"' >> .env`,
    ],
  },
  'generic-pass-name': {
    tp: [tp('DB_PASS=', `q8Vt!${b62(10)}`, '\n'), tp('dbpass: "', `${b62(12)}#`, '"'), tp("smtpPass = '", `${b62(11)}7`, "';"), tp('jdbc:mysql://db/app?user=app&userpass=', `${b62(12)}4`, '')],
    fp: [`bypass = "${b62(12)}#"`, `compass: ${b62(12)}7`, 'DB_PASS=${DB_PASS}', 'pass: true', 'DB_PASS=changeme1', `PASS_ID = "${b62(12)}#"`, `db_pass_file=/run/secrets/${b62(8)}`],
  },
};
