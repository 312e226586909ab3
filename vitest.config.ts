import { defineConfig } from 'vitest/config';

/** Test files that replace a module with vi.mock, which must not leak into the files that share a worker. */
const MOCKING = ['tests/cli/unexpected-error.test.ts', 'tests/cli/verify-harness-error.test.ts'];

/** Suites that drive headless Chromium: their own tier, so that `npm test` stays within two minutes. */
export const BROWSER_SUITES = ['suites/4.6-host-bridge.test.ts', 'suites/7.1-bridge-errors.test.ts'];

/** Unit files that run whole conformance runs or command-line processes: seconds each, so they run with e2e. */
const WHOLE_RUNS = [
  'tests/harness/run-twice.test.ts',
  'tests/self-test/gate.test.ts',
  'tests/cli/run.test.ts',
  'tests/cli/run-service-name.test.ts',
  'tests/cli/expected-failures.test.ts',
];

/**
 * Three tiers. `npm test` runs `unit` (with `unit-mocks`) and `suites`, what a developer needs before a commit; `npm run test:e2e`
 * runs `e2e` (processes of the command line, whole runs, live runs over HTTP, the packed tarball, Chromium) and the suites
 * that drive Chromium (`suites-browser`), which CI also runs.
 */
export default defineConfig({
  test: {
    environment: 'node',
    // Every temporary folder of a run lives under one that is removed when the run ends (tests/temp-root.ts).
    globalSetup: ['tests/temp-root.ts'],
    testTimeout: 20_000,
    pool: 'threads',
    projects: [
      // Unit test files share one module graph per worker (importing the cores once is most of their cost)...
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/e2e/**', ...MOCKING, ...WHOLE_RUNS], isolate: false } },
      // ...but a file that replaces a module with vi.mock gets a graph of its own.
      { extends: true, test: { name: 'unit-mocks', include: MOCKING } },
      { extends: true, test: { name: 'suites', include: ['suites/**/*.test.ts'], exclude: BROWSER_SUITES, isolate: false } },
      { extends: true, test: { name: 'suites-browser', include: BROWSER_SUITES, isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts', ...WHOLE_RUNS], testTimeout: 120_000 } },
    ],
  },
});
