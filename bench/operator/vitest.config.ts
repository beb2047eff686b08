import { defineConfig } from 'vitest/config';

// The operator convergence benchmark runs under vitest only to reuse the
// test support (kube-apiserver, Redis, operator process) written in
// TypeScript; it is not in `make test` (see ../../vitest.config.ts).
export default defineConfig({
  test: {
    include: ['bench/operator/*.bench-run.ts'],
    testTimeout: 30 * 60_000,
    hookTimeout: 30 * 60_000,
    pool: 'forks',
  },
});
