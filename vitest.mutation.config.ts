import { defineConfig } from 'vitest/config';

/**
 * Stryker's runs (npm run mutation): the conformance suites alone, against the embedded reference. A source
 * mutant of a core counts as killed only when a conformance check fails, never by a unit test.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['suites/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
