import { defineConfig } from 'vitest/config';
import { BROWSER_SUITES, MOCKING, WHOLE_RUNS } from './vitest.config.js';

/**
 * Stryker's runs (npm run mutation:*, docs/mutation.md): the unit tests and the conformance suites together, against
 * the embedded reference. A suite kills what a deployment answers; a unit test kills what only the library's caller
 * sees (the buyer's side, the readers, the words a result carries, the fakes). Left out: the browser's suites, the
 * processes and whole runs of e2e, the files that replace modules, the stores' tests against real servers (the
 * purchase stores' contract runs on memory and SQLite), and the drift test of the generated browser bundles.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts', 'suites/**/*.test.ts'],
    // Drift tests of generated files are left out too: a mutated sandbox bundles mutated sources.
    exclude: ['tests/e2e/**', 'tests/stores/!(purchase-stores).test.ts', 'tests/widgets/browser-bundles.test.ts', ...MOCKING, ...WHOLE_RUNS, ...BROWSER_SUITES],
    testTimeout: 30_000,
    pool: 'threads',
  },
});
