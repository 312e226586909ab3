import type { Clock } from '../../src/purchase/machine/ports/purchase.js';
import { MemoryPurchaseLock } from '../../src/purchase/testing/index.js';
import type { SqlDatabase } from '../../src/stores/sql/driver.js';
import { sqlPurchaseStores } from '../../src/stores/sql/stores.js';
import type { PurchaseStoresUnderTest } from './purchase-contract.js';

/** Every SQL adapter of the purchase contract on one prepared database, closed with it. */
export function sqlStoresUnderTest(
  db: SqlDatabase,
  options: { readonly clock?: Clock; readonly referencedElsewhere?: (challengeId: string) => boolean },
): PurchaseStoresUnderTest {
  // The deployment's own set of adapters; the lock and the stand-in chain are not the contract under test.
  const { lock: _lock, network: _network, ...stores } = sqlPurchaseStores(db, new MemoryPurchaseLock())(options);
  return { ...stores, close: () => db.close() };
}
