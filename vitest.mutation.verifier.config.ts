import { defineConfig } from 'vitest/config';

/**
 * Stryker's runs over the verifier (npm run mutation:verifier): the suites of section 7.3 and the key directory
 * (2.4), against the embedded reference. Other suites sign their requests too and could only kill more mutants,
 * so the score is a floor; leaving their slower checks out keeps a run within CI's budget.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['suites/7.3-*.test.ts', 'suites/2.4-key-directory.test.ts'],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
