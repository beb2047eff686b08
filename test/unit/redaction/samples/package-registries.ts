import { crc32 } from 'node:zlib';
import { b62, b64url, base64Of, hex, lowerAlnum, uuid } from '../fake.js';
import { tp, type SampleTable } from './types.js';

// An npm token with the checksum npm's generator gives it (CRC-32 of the 30
// random characters, six base62 digits), computed with zlib's CRC-32.
function npmMinted(): string {
  const body = b62(30);
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let crc = crc32(body);
  let check = '';
  for (let i = 0; i < 6; i++) {
    check = alphabet[crc % 62]! + check;
    crc = Math.floor(crc / 62);
  }
  return `npm_${body}${check}`;
}

export const packageRegistrySamples: SampleTable = {
  'npm-access-token': {
    tp: [tp('//registry.npmjs.org/:_authToken=', `npm_${b62(36)}`)],
    fp: [`npm_${'x'.repeat(36)}`, `npm_${b62(20)}`],
  },
  'npm-access-token-checksum': {
    tp: [tp('//registry.npmjs.org/:_authToken=', npmMinted()), tp('NPM_TOKEN', npmMinted()), tp('/', npmMinted(), '/x')],
    fp: [`x${'npm_'}${b62(36)}`, `npm_${'x'.repeat(36)}`, `${npmMinted()}A`],
  },
  'npmrc-auth-token': {
    tp: [tp('//registry.npmjs.org/:_authToken=', uuid())],
    fp: ['//registry.npmjs.org/:_authToken=${NPM_TOKEN}'],
  },
  'pypi-upload-token': {
    tp: [
      tp('password = ', `pypi-AgEIcHlwaS5vcmc${b64url(150)}`),
      tp('TWINE_PASSWORD=', `pypi-AgENdGVzdC5weXBpLm9yZw${b64url(150)}`),
      // inside a template expression, after a dot
      tp('  password: ${{ secrets.', `pypi-AgEIcHlwaS5vcmc${b64url(150)}`, '}}'),
    ],
    fp: [`pypi-AgEIcHlwaS5vcmc${b64url(10)}`, `pypi-${b64url(100)}`],
  },
  'rubygems-api-token': {
    tp: [tp('GEM_HOST_API_KEY=', `rubygems_${hex(48)}`)],
    fp: [`rubygems_${hex(20)}`],
  },
  'nuget-api-key': {
    tp: [tp('nuget push pkg.nupkg -k ', `oy2${lowerAlnum(43)}`, ' -s https://api.nuget.org/v3/index.json')],
    fp: [`build id oy2${lowerAlnum(43)}`],
  },
  'nuget-config-password': {
    tp: [tp('<add key="ClearTextPassword" value="', b62(16), '" />')],
    fp: ['<add key="ClearTextPassword" value="%FEED_PASSWORD%" />', '<add key="ClearTextPassword" value="abc" />'],
  },
  'dockerhub-access-token': {
    tp: [tp('docker login -u acme -p ', `dckr_pat_${b64url(27)}`)],
    fp: [`dckr_pat_${b64url(10)}`],
  },
  'docker-config-auth': {
    tp: [tp('{"auths": {"registry.example.com": {"auth": "', base64Of(`deploy:${b62(20)}`), '"}}}')],
    fp: [`{"auth": "${base64Of('no-separator-here')}"}`],
  },
  'clojars-api-token': {
    tp: [tp('CLOJARS_TOKEN=', `CLOJARS_${lowerAlnum(60)}`)],
    fp: [`CLOJARS_${lowerAlnum(20)}`],
  },
  'jfrog-api-key': {
    tp: [tp('X-JFrog-Art-Api: ', `AKCp${b62(69)}`)],
    fp: [`AKCp${'X'.repeat(69)}`, `AkCp${b62(69)}`],
  },
  'jfrog-reference-token': {
    tp: [tp('JFROG_TOKEN=', `cmVmd${b62(59)}`)],
    fp: [`cmVmd${b62(20)}`],
  },
  'jfrog-identity-token': {
    tp: [tp('ARTIFACTORY_ACCESS_TOKEN=', b62(64))],
    fp: ['artifactory_url = https://example.jfrog.io/artifactory'],
  },
  'sidekiq-gem-credentials': {
    tp: [tp('BUNDLE_ENTERPRISE__CONTRIBSYS__COM: ', `${hex(8)}:${hex(8)}`)],
    fp: ['BUNDLE_ENTERPRISE__CONTRIBSYS__COM: ${SIDEKIQ_CREDENTIALS}'],
  },
  'crates-io-token': {
    tp: [tp('CARGO_REGISTRY_TOKEN=', `cio${b62(32)}`)],
    fp: ['a precious conscious gracious cio', `cio${b62(10)}`],
  },
};
