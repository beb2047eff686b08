import { b62, b64, b64url, hex, lowerAlnum, uuid } from '../fake.js';
import { tp, type SampleTable, type RuleSamples } from './types.js';

const shopify = (prefix: string): RuleSamples => ({
  tp: [tp('SHOPIFY_TOKEN=', `${prefix}${hex(32)}`)],
  fp: [`${prefix}${hex(31)}`],
});

export const paymentSamples: SampleTable = {
  'stripe-secret-key': {
    tp: [tp('STRIPE_SECRET_KEY=', `sk_live_51${b62(97)}`), tp("stripe.api_key = '", `sk_test_${b62(24)}`, "'")],
    fp: [`nonMatching := "task_test_${b62(30)}"`, `pk_live_${b62(99)}`],
  },
  'stripe-restricted-key': {
    tp: [tp('STRIPE_KEY=', `rk_live_${b62(99)}`)],
    fp: ['rk_live_short'],
  },
  'stripe-webhook-secret': {
    tp: [tp('STRIPE_WEBHOOK_SECRET=', `whsec_${b64(32)}`)],
    fp: [`whsec_${b62(8)}`],
  },
  'square-access-token': {
    tp: [tp('SQUARE_ACCESS_TOKEN=', `EAAA${b64url(60)}`), tp('token=', `sq0atp-${b64url(22)}`)],
    fp: [`EAAA${b64url(10)}`, `aws-cli@sha256:eaaa${hex(60)}`],
  },
  'square-oauth-secret': {
    tp: [tp('SQUARE_APP_SECRET=', `sq0csp-${b64url(43)}`)],
    fp: [`sq0csp-${b64url(10)}`],
  },
  'braintree-access-token': {
    tp: [tp('BRAINTREE_TOKEN=', `access_token$production$${lowerAlnum(16)}$${hex(32)}`)],
    fp: ['access_token$production$$'],
  },
  'flutterwave-secret-key': {
    tp: [tp('FLW_SECRET_KEY=', `FLWSECK_TEST-${hex(32)}-X`)],
    fp: [`FLWSECK_TEST-${hex(32)}`],
  },
  'flutterwave-encryption-key': {
    tp: [tp('FLW_ENCRYPTION_KEY=', `FLWSECK_TEST${hex(12)}`)],
    fp: [`FLWSECK_TEST${hex(10)}`],
  },
  'plaid-access-token': {
    tp: [tp('"access_token": "', `access-sandbox-${uuid()}`, '"')],
    fp: ['access-sandbox-abc'],
  },
  'shopify-access-token': shopify('shpat_'),
  'shopify-custom-app-token': shopify('shpca_'),
  'shopify-private-app-token': shopify('shppa_'),
  'shopify-shared-secret': shopify('shpss_'),
  'easypost-api-key': {
    tp: [tp('EASYPOST_API_KEY=', `EZAK${b62(54)}`), tp('test key ', `EZTK${b62(54)}`)],
    fp: [`EZAK${b62(10)}`, `...fQ+EZAK${b62(54)}`],
  },
  'shippo-api-token': {
    tp: [tp('SHIPPO_API_TOKEN=', `shippo_live_${hex(40)}`)],
    fp: [`shippo_live_${hex(8)}`],
  },
};
