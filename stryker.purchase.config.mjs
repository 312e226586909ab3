import { readFileSync } from 'node:fs';

/**
 * The purchase machine's run (`npm run mutation:purchase`, and CI): the settings of stryker.config.json over the whole
 * of src/purchase (the machine, the readers of what a deployment sends, the buyer and the in-memory adapters), with an
 * incremental file kept in the repository and a floor under the score.
 */
const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));
// The floor CI holds (docs/mutation.md): the measured score rounded down, so a change that lets more mutants live fails.
const floors = JSON.parse(readFileSync(new URL('./mutation/floors.json', import.meta.url), 'utf8'));

export default {
  ...base,
  // messages.ts holds the words of problem details only, which the spec leaves open.
  mutate: ['src/purchase/**/*.ts', '!src/purchase/**/index.ts', '!src/purchase/machine/messages.ts'],
  incremental: true,
  incrementalFile: 'mutation/purchase.incremental.json',
  thresholds: { high: 95, low: 85, break: floors.purchase },
  jsonReporter: { fileName: 'reports/mutation/purchase.json' },
  htmlReporter: { fileName: 'reports/mutation/purchase.html' },
  tempDirName: '.stryker-tmp-purchase',
};
