import { readFileSync } from 'node:fs';

/**
 * The other cores' run (`npm run mutation:cores`): endpoint access control, SDK-to-SDK tokens and the widget
 * rules, killed by the unit tests and the suites that need no browser (stryker.config.json), with an incremental file
 * kept in the repository. No floor is set for these cores; the run measures them (docs/mutation.md).
 */
const base = JSON.parse(readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  // src/widgets/browser is bundled for the browser (npm run vectors writes the bundles): a mutant of its sources
  // changes no bundle a check loads, so it is left out rather than counted as a survivor.
  mutate: ['src/access/**/*.ts', 'src/sdk-auth/**/*.ts', 'src/widgets/**/*.ts', '!src/**/index.ts', '!src/widgets/browser/**'],
  incremental: true,
  incrementalFile: 'mutation/cores.incremental.json',
  jsonReporter: { fileName: 'reports/mutation/cores.json' },
  htmlReporter: { fileName: 'reports/mutation/cores.html' },
  tempDirName: '.stryker-tmp-cores',
};
