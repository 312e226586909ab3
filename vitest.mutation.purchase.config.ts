import { defineConfig } from 'vitest/config';

/**
 * Stryker's runs over the purchase machine (npm run mutation:purchase): every suite that needs no browser, against
 * the embedded reference. The suites that buy (7.4, the fleet's shared purchase state of 5.2, the in-band frames
 * of 6) kill most mutants; the agent suites reach the paid agent socket and the relay. Leaving out only the
 * browser's checks (4.6, 7.1), which buy nothing, keeps each run shorter.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['suites/*.test.ts'],
    exclude: ['suites/4.6-host-bridge.test.ts', 'suites/7.1-bridge-errors.test.ts'],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
