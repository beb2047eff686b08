import { prefixedToken, type Rule } from '../rule.js';

function shopify(id: string, prefix: string, what: string): Rule {
  return prefixedToken({
    id,
    description: `Shopify ${what}: ${prefix} and 32 hex characters.`,
    keywords: [prefix],
    token: `${prefix}[0-9a-fA-F]{32}`,
    entropy: 3,
  });
}

export const paymentRules: readonly Rule[] = [
  prefixedToken({
    id: 'stripe-secret-key',
    description: 'Stripe secret key: sk_live_, sk_test_ or sk_prod_ and 10-247 characters (publishable pk_ keys are not secret).',
    keywords: ['sk_live_', 'sk_test_', 'sk_prod_'],
    token: 'sk_(?:live|test|prod)_[A-Za-z0-9]{10,247}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'stripe-restricted-key',
    description: 'Stripe restricted key: rk_live_, rk_test_ or rk_prod_ and 10-247 characters.',
    keywords: ['rk_live_', 'rk_test_', 'rk_prod_'],
    token: 'rk_(?:live|test|prod)_[A-Za-z0-9]{10,247}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'stripe-webhook-secret',
    description: 'Stripe webhook signing secret: whsec_ and 32-64 characters.',
    keywords: ['whsec_'],
    token: 'whsec_[A-Za-z0-9+/=]{32,64}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'square-access-token',
    description: 'Square access token: EAAA and 60 characters, or legacy sq0atp- and 22.',
    keywords: ['EAAA', 'sq0atp-'],
    token: 'EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'square-oauth-secret',
    description: 'Square OAuth application secret: sq0csp- and 43 characters.',
    keywords: ['sq0csp-'],
    token: 'sq0csp-[A-Za-z0-9_-]{43}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'braintree-access-token',
    description: 'PayPal Braintree access token: access_token$production$, 16 characters, $ and 32 hex.',
    keywords: ['access_token$production$'],
    token: 'access_token\\$production\\$[0-9a-z]{16}\\$[0-9a-f]{32}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'flutterwave-secret-key',
    description: 'Flutterwave secret key: FLWSECK- or FLWSECK_TEST-, 32 hex and -X.',
    keywords: ['FLWSECK'],
    token: 'FLWSECK(?:_TEST)?-[0-9a-f]{32}-X',
    entropy: 3,
  }),
  prefixedToken({
    id: 'flutterwave-encryption-key',
    description: 'Flutterwave encryption key: FLWSECK_TEST and 12 hex characters.',
    keywords: ['FLWSECK'],
    token: 'FLWSECK(?:_TEST)?-?[0-9a-f]{12}',
    entropy: 3,
  }),
  prefixedToken({
    id: 'plaid-access-token',
    description: 'Plaid access token: access-sandbox-, access-development- or access-production- and a UUID.',
    keywords: ['access-sandbox-', 'access-development-', 'access-production-'],
    token: 'access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
    entropy: 3,
  }),
  shopify('shopify-access-token', 'shpat_', 'admin API access token'),
  shopify('shopify-custom-app-token', 'shpca_', 'custom app access token'),
  shopify('shopify-private-app-token', 'shppa_', 'private app access token'),
  shopify('shopify-shared-secret', 'shpss_', 'app shared secret'),
  prefixedToken({
    id: 'easypost-api-key',
    description: 'EasyPost production or test API key: EZAK or EZTK and 54 characters.',
    keywords: ['EZAK', 'EZTK'],
    token: 'EZ[AT]K[A-Za-z0-9]{54}',
    entropy: 3.5,
  }),
  prefixedToken({
    id: 'shippo-api-token',
    description: 'Shippo API token: shippo_live_ or shippo_test_ and 40 hex characters.',
    keywords: ['shippo_live_', 'shippo_test_'],
    token: 'shippo_(?:live|test)_[0-9a-f]{40}',
    entropy: 3,
  }),
];
