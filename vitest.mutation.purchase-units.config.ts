import { defineConfig } from 'vitest/config';

/**
 * The unit and adapter tests of the code stryker.purchase-units.config.mjs mutates: the readers' and the buyer's own
 * tests, and the purchase store contract. The machine's model and property tests are left out: they buy through
 * every port, so each mutant of an adapter would run them all.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'tests/purchase/inband/*.test.ts',
      'tests/purchase/buyer/*.test.ts',
      'tests/purchase/auth-params.test.ts',
      'tests/purchase/challenge.test.ts',
      'tests/purchase/credential.test.ts',
      'tests/purchase/sale-tempo.test.ts',
      'tests/purchase/tempo/settle.test.ts',
      'tests/stores/purchase-stores.test.ts',
    ],
    pool: 'threads',
  },
});
