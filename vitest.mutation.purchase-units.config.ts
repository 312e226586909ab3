import { defineConfig } from 'vitest/config';

/** The unit and adapter tests of the purchase machine (stryker.purchase-units.config.mjs). */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/purchase/**/*.test.ts', 'tests/stores/purchase-stores.test.ts'],
    pool: 'threads',
  },
});
