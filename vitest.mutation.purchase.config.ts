import { defineConfig } from 'vitest/config';

/**
 * Stryker's runs over the purchase machine (npm run mutation:purchase): the suites that buy (7.4, the fleet's
 * shared purchase state of 5.2, and the in-band purchase frames of 6), against the embedded reference. Other
 * suites could only kill more mutants, so the score is a floor.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['suites/7.4-*.test.ts', 'suites/5.2-fleet.test.ts', 'suites/6-events.test.ts'],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
