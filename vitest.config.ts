import { defineConfig } from 'vitest/config';

// Three tiers mirror the source tree. Integration and e2e tests start real
// processes (redis-server, gw serve, mock providers), so they get longer
// hook timeouts; no test asserts on timing.
export default defineConfig({
  test: {
    include: ['test/{unit,integration,e2e}/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
});
