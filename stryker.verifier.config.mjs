import { readFileSync } from 'node:fs';

/**
 * The verifier's run (`npm run mutation:verifier`, and CI): the settings of stryker.config.json over the
 * verifier's files, with an incremental file kept in the repository, so a run tests again only the mutants whose
 * code or checks changed, and a floor under the score (docs/mutation.md says how it was set).
 */
const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  // The whole verifier but messages.ts, which holds the words of error_description only (docs/mutation.md).
  mutate: ['src/verifier/**/*.ts', '!src/verifier/index.ts', '!src/verifier/messages.ts'],
  // The suites that judge 7.3 and 2.4 (vitest.mutation.verifier.config.ts), not the slower purchase checks.
  vitest: { ...base.vitest, configFile: 'vitest.mutation.verifier.config.ts' },
  incremental: true,
  incrementalFile: 'mutation/verifier.incremental.json',
  thresholds: { high: 95, low: 85, break: 90 },
  jsonReporter: { fileName: 'reports/mutation/verifier.json' },
  htmlReporter: { fileName: 'reports/mutation/verifier.html' },
};
