import { readFileSync } from 'node:fs';

/**
 * The verifier's run (`npm run mutation:verifier`, and CI): the settings of stryker.config.json (the unit tests and the
 * suites together, the words the spec leaves open ignored) over the verifier's files, with an incremental file kept in
 * the repository, so a run tests again only the mutants whose code or tests changed, and a floor under the score.
 */
const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));
// The floor CI holds (docs/mutation.md): the measured score rounded down, so a change that lets more mutants live fails.
const floors = JSON.parse(readFileSync(new URL('./mutation/floors.json', import.meta.url), 'utf8'));

export default {
  ...base,
  // The whole verifier but messages.ts, which holds the words of error_description only, and the order check of steps
  // it shares with the purchase machine.
  mutate: ['src/verifier/**/*.ts', 'src/steps/**/*.ts', '!src/verifier/index.ts', '!src/verifier/messages.ts'],
  incremental: true,
  incrementalFile: 'mutation/verifier.incremental.json',
  thresholds: { high: 95, low: 85, break: floors.verifier },
  jsonReporter: { fileName: 'reports/mutation/verifier.json' },
  htmlReporter: { fileName: 'reports/mutation/verifier.html' },
};
