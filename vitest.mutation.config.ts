import { defineConfig } from 'vitest/config';
import { BROWSER_SUITES } from './vitest.config.js';

/**
 * Stryker's runs (npm run mutation:*, docs/mutation.md): the cores' unit tests and the conformance suites together,
 * against the embedded reference. A suite kills what a deployment answers; a unit test kills what only the library's
 * caller sees (the buyer's side, the readers, the words a result carries, the fakes). The tests of the command line,
 * the run's harness, the reference's composition and the stores' servers are left out: they reach the cores only
 * through what the suites already exercise, and each would run its processes and servers once per mutant. So are the
 * browser's suites and the drift test of the generated bundles (a mutated sandbox bundles mutated sources).
 */
const CORE_TESTS = [
  'access',
  'agent-check',
  'cases',
  'fetch',
  'httpsig',
  'interop',
  'net',
  'purchase',
  'sdk-auth',
  'spec',
  'vectors',
  'verifier',
  'widgets',
].map((folder) => `tests/${folder}/**/*.test.ts`);

export default defineConfig({
  test: {
    environment: 'node',
    // Every temporary folder a test makes lives under one that is removed when the run ends (tests/temp-root.ts).
    globalSetup: ['tests/temp-root.ts'],
    setupFiles: ['tests/mutation-setup.ts'],
    include: [...CORE_TESTS, 'tests/stores/purchase-stores.test.ts', 'suites/**/*.test.ts'],
    exclude: ['tests/widgets/browser-bundles.test.ts', ...BROWSER_SUITES],
    // One module graph per worker, as npm test runs them: importing the cores once is most of a run's cost.
    isolate: false,
    testTimeout: 30_000,
    pool: 'threads',
  },
});
