import { defineConfig } from 'vitest/config';

/** Test files that replace a module with vi.mock, which must not leak into the files that share a worker. */
const MOCKING = ['tests/cli/unexpected-error.test.ts', 'tests/cli/verify-harness-error.test.ts'];

/**
 * Three tiers. `npm test` runs `unit` (with `unit-mocks`) and `suites`, what a developer needs before a commit; `npm run test:e2e`
 * runs `e2e` (processes of the command line, live runs over HTTP, the packed tarball, Chromium), which CI also runs.
 */
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    pool: 'threads',
    projects: [
      // Unit test files share one module graph per worker (importing the cores once is most of their cost)...
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: ['tests/e2e/**', ...MOCKING], isolate: false } },
      // ...but a file that replaces a module with vi.mock gets a graph of its own.
      { extends: true, test: { name: 'unit-mocks', include: MOCKING } },
      { extends: true, test: { name: 'suites', include: ['suites/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
