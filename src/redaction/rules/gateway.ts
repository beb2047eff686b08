import { AFTER, BEFORE, Specificity, type Rule } from '../rule.js';

export const gatewayRules: readonly Rule[] = [
  {
    id: 'gw-caller-token',
    description: "This gateway's caller token: gwct_ and exactly 46 base62 characters.",
    keywords: ['gwct_'],
    pattern: new RegExp(`${BEFORE}(gwct_[0-9A-Za-z]{46})${AFTER}`),
    specificity: Specificity.gateway,
    // Our own credential has a fixed shape: even a stand-in-looking value is
    // one an operator typed, so nothing is waved through as a placeholder.
    accept: () => true,
  },
];
