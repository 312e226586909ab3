import type { Clock } from '../../src/purchase/machine/ports/purchase.js';
import type { SqlDatabase } from '../../src/stores/sql/driver.js';
import { SqlCapCounters } from '../../src/stores/sql/cap-counters.js';
import { SqlFunding } from '../../src/stores/sql/funding.js';
import { SqlPurchaseStore } from '../../src/stores/sql/purchase-store.js';
import { SqlRailLedger } from '../../src/stores/sql/rail-ledger.js';
import { SqlSaleStore } from '../../src/stores/sql/sale-store.js';
import { SqlTransferStore, SqlWalletCaps } from '../../src/stores/sql/stablecoin-store.js';
import type { PurchaseStoresUnderTest } from './purchase-contract.js';

/** Every SQL adapter of the purchase contract on one prepared database, closed with it. */
export function sqlStoresUnderTest(
  db: SqlDatabase,
  options: { readonly clock?: Clock; readonly referencedElsewhere?: (challengeId: string) => boolean },
): PurchaseStoresUnderTest {
  return {
    store: new SqlPurchaseStore(db, options),
    sales: new SqlSaleStore(db),
    funding: new SqlFunding(db),
    transfers: new SqlTransferStore(db),
    walletCaps: new SqlWalletCaps(db),
    caps: new SqlCapCounters(db),
    ledger: new SqlRailLedger(db),
    close: () => db.close(),
  };
}
