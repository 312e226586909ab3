import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'suites/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'threads',
  },
});
