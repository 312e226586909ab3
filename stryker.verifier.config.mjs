import { readFileSync } from 'node:fs';

/**
 * The verifier's run (`npm run mutation:verifier`, and CI): the settings of stryker.config.json over the
 * verifier's files, with an incremental file kept in the repository, so a run tests again only the mutants whose
 * code or checks changed, and a floor under the score (docs/mutation.md says how it was set).
 */
const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  // The files measured and held at their score (docs/mutation.md): the verifier's local checks, the card, the key set
  // and the Signature-Agent forms. The rest of src/verifier joins once its survivors are dealt with and its incremental
  // results committed. messages.ts never does (the words of error_description only).
  mutate: ['src/verifier/checks-local.ts', 'src/verifier/card.ts', 'src/verifier/key-set.ts', 'src/verifier/signature-agent.ts'],
  // The suites that judge 7.3 and 2.4 (vitest.mutation.verifier.config.ts), not the slower purchase checks.
  vitest: { ...base.vitest, configFile: 'vitest.mutation.verifier.config.ts' },
  incremental: true,
  incrementalFile: 'mutation/verifier.incremental.json',
  thresholds: { high: 90, low: 80, break: 95 },
  jsonReporter: { fileName: 'reports/mutation/verifier.json' },
  htmlReporter: { fileName: 'reports/mutation/verifier.html' },
};
