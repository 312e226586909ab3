import { describe, expect, it } from 'vitest';
import { PACK_GUARDS, SALE_GUARDS } from '../../src/purchase/index.js';
import { PAYMENT_PROBLEMS } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';

const CATALOGUE: ReadonlySet<object> = new Set([...Object.values(PURCHASE_ERRORS), ...Object.values(PAYMENT_PROBLEMS)]);
const TABLES = { PACK_GUARDS, SALE_GUARDS } as const;

describe('the order of purchase guards (pack/guards.ts, sale/guards.ts)', () => {
  for (const [label, table] of Object.entries(TABLES)) {
    it(`${label}: frozen, names unique, every entry says why, answers only catalogue rows, and ends with the charge`, () => {
      expect(Object.isFrozen(table)).toBe(true);
      const names = table.map((guard) => guard.name);
      expect(new Set(names).size).toBe(names.length);
      for (const guard of table) {
        expect(guard.why.length, guard.name).toBeGreaterThan(20);
        for (const code of guard.codes) expect(CATALOGUE.has(code), `${guard.name} answers a record outside the catalogue`).toBe(true);
      }
      expect(names.at(-1)).toBe('charge');
    });
  }

  it('a guard both surfaces run is one entry, in the same relative order in both tables', () => {
    const shared = PACK_GUARDS.filter((guard) => SALE_GUARDS.some((other) => other.name === guard.name));
    expect(shared.map((guard) => guard.name)).toEqual([
      'same-credential',
      'switches',
      'offer',
      'readable',
      'method',
      'expiry',
      'payload',
      'terms',
      'transaction',
      'unreconciled',
      'market',
      'lock',
      'wallet-cap',
      'record',
      'charge',
    ]);
    for (const guard of shared) expect(SALE_GUARDS.find((other) => other.name === guard.name)).toBe(guard);
    const sharedEntries: ReadonlySet<object> = new Set(shared);
    expect(SALE_GUARDS.filter((guard) => sharedEntries.has(guard)).map((guard) => guard.name)).toEqual(shared.map((guard) => guard.name));
  });
});
