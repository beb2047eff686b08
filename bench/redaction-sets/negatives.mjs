// Hard negatives: text that looks like a credential and is not one (hashes,
// UUIDs, base64 images, commit ids, minified code, documentation
// placeholders, public identifiers). Nothing in them may be redacted. Two
// disjoint families of templates, as for the positives.
import { A, uuid } from './random.mjs';

const hex = (r, n) => r.chars(A.hex, n);
const b64 = (r, n) => r.chars(A.b64, n);

function minified(r) {
  const id = () => r.pick(['a', 'b', 'c', 'e', 't', 'n', 'r', 'i', 'o', 's']) + r.chars(A.lowernum, r.int(0, 2));
  const parts = [];
  for (let i = 0; i < 30; i++) {
    parts.push(
      r.pick([
        () => `var ${id()}=function(${id()},${id()}){return ${id()}+${id()}}`,
        () => `${id()}.prototype.${r.pick(['render', 'update', 'key', 'token'])}=function(){return this.${id()}}`,
        () => `${id()}=${id()}[${r.int(0, 99)}]||{}`,
        () => `"use strict";${id()}.exports=${id()}`,
        () => `${id()}=(${id()}&${r.int(1, 255)})>>>${r.int(1, 8)}`,
        () => `${id()}.key=${id()}.key||"${r.pick(['id', 'name', 'value'])}"`,
      ])(),
    );
  }
  return parts.join(';');
}

export const NEGATIVES_TUNING = {
  'sha256-checksums': (r) => `${hex(r, 64)}  node-v20.11.0-linux-x64.tar.xz\n${hex(r, 64)}  node-v20.11.0-darwin-arm64.tar.gz\n`,
  'git-log': (r) => `commit ${hex(r, 40)}\nAuthor: Dana <dana@example.com>\nDate:   Tue Mar 12 10:11:12 2024 +0100\n\n    Fix token refresh race\n\ncommit ${hex(r, 40)}\n`,
  'uuid-request-ids': (r) => `2024-03-12T10:00:00Z INFO request_id=${uuid(r)} trace_id=${hex(r, 32)} span_id=${hex(r, 16)} status=200\n`,
  'base64-image': (r) => `![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${b64(r, 600)}=)`,
  'npm-integrity': (r) => JSON.stringify({ name: 'left-pad', version: '1.3.0', resolved: 'https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz', integrity: `sha512-${b64(r, 86)}==` }, null, 2),
  'minified-js': (r) => minified(r),
  'placeholder-env': (r) =>
    r.pick([
      'OPENAI_API_KEY=your-api-key-here\nSTRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\n',
      'GITHUB_TOKEN=<your-github-token>\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}\n',
      'api_key: "{{ .Values.apiKey }}"\npassword: changeme\n',
      'SLACK_BOT_TOKEN=xoxb-your-token\nDATABASE_URL=postgres://user:password@localhost:5432/db\n',
      'export TWILIO_AUTH_TOKEN=your_auth_token\nexport DD_API_KEY=<DATADOG_API_KEY>\n',
    ]),
  'docker-digest': (r) => `FROM node:20-alpine@sha256:${hex(r, 64)}\nRUN npm ci\n`,
  'public-ids': (r) => `Stripe publishable key: pk_live_${r.chars(A.b62, 24)}\nTwilio account: AC${hex(r, 32)}\nGoogle Analytics: G-${r.chars(A.uppernum, 10)}\n`,
  'ssh-public-key': (r) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(r, 43)} dana@laptop\n`,
  'token-counts': (r) => `usage: {"input_tokens": ${r.int(10, 9999)}, "output_tokens": ${r.int(10, 999)}, "cache_read_input_tokens": ${r.int(0, 9999)}}\nmax_tokens = ${r.int(256, 8192)}\n`,
  'css-hashes': (r) => `<link rel="stylesheet" href="/assets/app.${hex(r, 20)}.css" integrity="sha384-${b64(r, 64)}" crossorigin="anonymous">`,
};

export const NEGATIVES_HELD_OUT = {
  'md5-manifest': (r) => `MD5 (release.zip) = ${hex(r, 32)}\nSHA1 (release.zip) = ${hex(r, 40)}\n`,
  'git-rev-parse': (r) => `$ git rev-parse HEAD\n${hex(r, 40)}\n$ git checkout ${hex(r, 12)}\n`,
  'uuid-json': (r) => JSON.stringify({ id: uuid(r), customer_id: uuid(r), idempotency_key: uuid(r), created: 1710000000 }, null, 2),
  'svg-data-uri': (r) => `background: url("data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ${b64(r, 500)}");`,
  'yarn-lock': (r) => `"lodash@^4.17.21":\n  version "4.17.21"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#${hex(r, 40)}"\n  integrity sha512-${b64(r, 86)}==\n`,
  'webpack-bundle': (r) => `!function(e){var t={};function n(r){if(t[r])return t[r].exports}n.p="/";n.h="${hex(r, 20)}"}(${minified(r).slice(0, 400)})`,
  'placeholder-docs': (r) =>
    r.pick([
      'Set `ANTHROPIC_API_KEY` to your key (it looks like sk-ant-api03-...).',
      'client = OpenAI(api_key="YOUR_API_KEY")\n',
      '<password>${env.NEXUS_PASSWORD}</password>\n',
      'token: "<PASTE_TOKEN_HERE>"\nsecret: "********"\n',
      "password = os.environ['DB_PASSWORD']\napi_key = config.get('api_key')\n",
    ]),
  'lfs-pointer': (r) => `version https://git-lfs.github.com/spec/v1\noid sha256:${hex(r, 64)}\nsize ${r.int(1000, 9999999)}\n`,
  'aws-arns': (r) => `arn:aws:iam::${r.chars(A.digits, 12)}:role/deploy\narn:aws:kms:us-east-1:${r.chars(A.digits, 12)}:key/${uuid(r)}\n`,
  'gpg-fingerprint': (r) => `pub   rsa4096 2023-01-01 [SC]\n      ${r.chars(A.HEX, 40)}\nuid   Release Signing <release@example.com>\n`,
  'pagination-cursors': (r) => `{"data": [], "next_page_token": null, "page_size": 50, "etag": "W/\\"${hex(r, 32)}\\""}`,
  'csp-nonces': (r) => `Content-Security-Policy: script-src 'self' 'sha256-${b64(r, 43)}=' 'nonce-${r.chars(A.b62, 22)}'`,
};
