import { b62, b64url, digits, hex, lowerAlnum, uuid } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const productivitySamples: SampleTable = {
  'notion-api-token': {
    tp: [tp('NOTION_TOKEN=', `ntn_${digits(11)}${b62(35)}`)],
    fp: ['ntn_12345678901', `ntn_${digits(60)}`],
  },
  'notion-legacy-token': {
    tp: [tp('NOTION_TOKEN=', `secret_${b62(43)}`)],
    fp: ['secret_key_base = Rails.application.credentials.secret_key_base'],
  },
  'linear-api-key': {
    tp: [tp('LINEAR_API_KEY=', `lin_api_${b62(40)}`)],
    fp: [`lin_api_${b62(10)}`],
  },
  'linear-oauth-token': {
    tp: [tp('Authorization: ', `lin_oauth_${hex(64)}`)],
    fp: [`lin_oauth_${hex(10)}`],
  },
  'airtable-pat': {
    tp: [tp('AIRTABLE_TOKEN=', `pat${b62(14)}.${hex(64)}`)],
    fp: ['path.join(dir, file)', `pat${b62(14)}.${hex(20)}`],
  },
  'asana-pat': {
    tp: [tp('ASANA_TOKEN=', `1/${digits(16)}:${hex(32)}`)],
    fp: ['a ratio of 1/2 or 2/3', `1/${digits(16)}`],
  },
  'figma-pat': {
    tp: [tp('FIGMA_TOKEN=', `figd_${b64url(40)}`)],
    fp: [`figd_${b62(10)}`],
  },
  'hubspot-private-app-token': {
    tp: [tp('HUBSPOT_ACCESS_TOKEN=', `pat-na1-${uuid()}`)],
    fp: ['pat-na1-short'],
  },
  'typeform-api-token': {
    tp: [tp('TYPEFORM_TOKEN=', `tfp_${b64url(59)}`)],
    fp: [`tfp_${b62(10)}`],
  },
  'dropbox-short-lived-token': {
    tp: [tp('DROPBOX_TOKEN=', `sl.${b64url(140)}`)],
    fp: ['ctx = ssl.create_default_context()', `sl.${b62(20)}`],
  },
  'postman-api-key': {
    tp: [tp('POSTMAN_API_KEY=', `PMAK-${hex(24)}-${hex(34)}`)],
    fp: [`PMAK-${hex(24)}`],
  },
  'readme-api-key': {
    tp: [tp('README_API_KEY=', `rdme_${lowerAlnum(70)}`)],
    fp: [`const API_KEY = 'rdme_${'X'.repeat(70)}';`],
  },
  'contentful-pat': {
    tp: [tp('CONTENTFUL_MANAGEMENT_TOKEN=', `CFPAT-${b64url(43)}`)],
    fp: [`CFPAT-${b62(10)}`],
  },
  'mapbox-secret-token': {
    tp: [tp('MAPBOX_SECRET_TOKEN=', `sk.eyJ${b64url(80)}.${b64url(22)}`)],
    fp: [`pk.eyJ${b64url(80)}.${b64url(22)}`],
  },
  'adafruit-io-key': {
    tp: [tp('ADAFRUIT_IO_KEY=', `aio_${b62(28)}`)],
    fp: [`aio_${b62(10)}`],
  },
  'adobe-client-secret': {
    tp: [tp('ADOBE_CLIENT_SECRET=', `p8e-${b64url(32)}`)],
    fp: [`p8e-${b62(10)}`],
  },
  'hubspot-api-key': {
    tp: [tp('HUBSPOT_API_KEY=', uuid())],
    fp: ['hubspot_portal_id = 12345678'],
  },
  'heroku-api-key': {
    tp: [tp('HEROKU_API_KEY=', `HRKU-AA${b64url(58)}`)],
    fp: [`HRKU-AA${b62(10)}`],
  },
  'heroku-legacy-api-key': {
    tp: [tp('HEROKU_API_KEY=', uuid())],
    fp: ['heroku_app = my-app', `heroku_id = ${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`],
  },
  'supabase-access-token': {
    tp: [tp('SUPABASE_ACCESS_TOKEN=', `sbp_${hex(40)}`)],
    fp: [`sbp_${hex(20)}`],
  },
  'supabase-secret-key': {
    tp: [tp('SUPABASE_SECRET_KEY=', `sb_secret_${b64url(40)}`)],
    fp: [`sb_secret_${b62(10)}`],
  },
  'facebook-access-token': {
    tp: [tp('FB_PAGE_TOKEN=', `EAA${b62(150)}`)],
    fp: [`EAA${b62(20)}`, `eaaa${hex(40)}`],
  },
  'facebook-app-access-token': {
    tp: [tp('facebook app token: ', `${digits(15)}|${b64url(27)}`)],
    fp: [`${digits(15)}|${b64url(27)}`],
  },
  'twitter-bearer-token': {
    tp: [tp('TWITTER_BEARER_TOKEN=', `${'A'.repeat(22)}${b62(30)}%3D${b62(50)}`)],
    fp: ['A'.repeat(30)],
  },
  'intra42-client-secret': {
    tp: [tp('FT_SECRET=', `s-s4t2ud-${hex(64)}`)],
    fp: [`s-s4t2ud-${hex(10)}`],
  },
  'sonarqube-token': {
    tp: [tp('SONAR_TOKEN=', `squ_${hex(40)}`)],
    fp: [`squ_${hex(10)}`],
  },
  'sonarqube-legacy-token': {
    tp: [tp('sonar.login=', b62(40))],
    fp: ['sonar.projectKey=my-project'],
  },
  'frameio-api-token': {
    tp: [tp('FRAMEIO_TOKEN=', `fio-u-${b64url(64)}`)],
    fp: [`fio-u-${b62(10)}`],
  },
};
