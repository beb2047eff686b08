import { b62, b64, b64url, hex, upperAlnum } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const observabilitySamples: SampleTable = {
  'datadog-api-key': {
    tp: [tp('DD_API_KEY=', hex(32)), tp('datadog_api_key: "', hex(32), '"')],
    fp: ['datadog_site = datadoghq.eu', `DD_API_KEY=${'0'.repeat(32)}`],
  },
  'datadog-app-key': {
    tp: [tp('DD_APP_KEY=', hex(40))],
    fp: [`DD_APP_KEY=${hex(20)}`],
  },
  'new-relic-user-api-key': {
    tp: [tp('NEW_RELIC_API_KEY=', `NRAK-${upperAlnum(27)}`)],
    fp: [`NRAK-${upperAlnum(10)}`],
  },
  'new-relic-insert-key': {
    tp: [tp('NEW_RELIC_INSERT_KEY=', `NRII-${b64url(32)}`)],
    fp: [`NRII-${b62(10)}`],
  },
  'new-relic-browser-key': {
    tp: [tp('browser key: ', `NRJS-${hex(19)}`)],
    fp: [`NRJS-${hex(10)}`],
  },
  'grafana-service-account-token': {
    tp: [tp("'Authorization': 'Bearer ", `glsa_${b62(32)}_${hex(8)}`, "'")],
    fp: [`glsa_${'X'.repeat(32)}_AAAAAAAA`],
  },
  'grafana-cloud-token': {
    tp: [tp('GRAFANA_CLOUD_TOKEN=', `glc_${b64(120)}`)],
    fp: ['void GLC_CreateLightmapTextureArray(void);', `API_KEY="glc_${'1'.repeat(42)}="`],
  },
  'grafana-api-key': {
    tp: [tp('GRAFANA_API_KEY=', `eyJrIjoi${b64(80)}`)],
    fp: [`eyJrIjoi${b64(10)}`],
  },
  'sentry-user-token': {
    tp: [tp('SENTRY_AUTH_TOKEN=', `sntryu_${hex(64)}`)],
    fp: [`sntryu_${'a'.repeat(64)}`, `sntryu_${hex(63)}`],
  },
  'sentry-org-token': {
    tp: [tp('SENTRY_AUTH_TOKEN=', `sntrys_eyJpYXQiOjE3MTcy${b64(100)}=_${b64(43)}`)],
    fp: [`sntrys_${b62(100)}`, `sntrys_eyJpYXQiOjE3MTcy${b64(100)}_${b64(42)}`],
  },
  'sentry-dsn-key': {
    tp: [tp('SENTRY_DSN=https://', hex(32), `@o${hex(6).replace(/[a-f]/g, '1')}.ingest.us.sentry.io/4507${hex(4).replace(/[a-f]/g, '2')}`)],
    fp: ['SENTRY_DSN=https://<key>@o0.ingest.sentry.io/0', `https://${hex(32)}@example.com/1`],
  },
  'dynatrace-api-token': {
    tp: [tp('DT_API_TOKEN=', `dt0c01.${upperAlnum(24)}.${upperAlnum(64)}`)],
    fp: [`dt0c01.${upperAlnum(10)}`],
  },
  'sumologic-access-key': {
    tp: [tp('SUMO_ACCESS_KEY=', b62(64))],
    fp: ['SUMO_ACCESS_KEY=${SUMO_ACCESS_KEY:=$2}', `#   SUMO_ACCESS_KEY=${'x'.repeat(64)}`],
  },
  'sumologic-access-id': {
    tp: [tp('SUMO_ACCESS_ID=', `su${b62(12)}`)],
    fp: [`sumObj = su${b62(12)}`, 'SUMOLOGIC_ACCESSID: ${SUMOLOGIC_ACCESSID}'],
  },
};
