import { defineConfig } from 'vitest/config';

/**
 * Stryker's runs over the verifier (npm run mutation:verifier): the suites of section 7.3 and the key directory
 * (2.4), and the quick ones that present credentials to declared and agent endpoints (4.1, 5.4, 5.5, 7.2: bearers,
 * scopes and the identity a verdict carries) and purchases (7.4: the fields a signature covers, a bearer's subject),
 * against the embedded reference. Other suites sign their requests too and could only kill more mutants, so the
 * score is a floor; leaving the browser's slower checks out keeps a run within CI's budget.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'suites/7.3-*.test.ts',
      'suites/2.4-key-directory.test.ts',
      'suites/4.1-declared-endpoints.test.ts',
      'suites/5.4-access-control.test.ts',
      'suites/5.5-sdk-tokens.test.ts',
      'suites/7.2-agent-endpoints.test.ts',
      'suites/7.4-*.test.ts',
    ],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
