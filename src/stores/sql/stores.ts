import type { PurchaseLock } from '../../purchase/machine/ports/purchase.js';
import type { SqlDatabase } from './driver.js';
import { SqlCapCounters } from './cap-counters.js';
import { SqlFunding } from './funding.js';
import { SqlPurchaseStore, type SqlPurchaseStoreOptions } from './purchase-store.js';
import { SqlRailLedger } from './rail-ledger.js';
import { SqlSaleStore } from './sale-store.js';
import { SqlStablecoinNetwork } from './stablecoin-network.js';
import { SqlTransferStore, SqlWalletCaps } from './stablecoin-store.js';

export interface SqlPurchaseStores {
  readonly store: SqlPurchaseStore;
  readonly lock: PurchaseLock;
  readonly sales: SqlSaleStore;
  readonly funding: SqlFunding;
  readonly transfers: SqlTransferStore;
  readonly walletCaps: SqlWalletCaps;
  readonly caps: SqlCapCounters;
  readonly ledger: SqlRailLedger;
  readonly network: SqlStablecoinNetwork;
}

/**
 * Every record the purchase machine and the paid rails keep, on one database, with the lock given (Redis for a fleet,
 * memory for one instance): purchases, sales and holds, stablecoin transfers and wallet totals (and the stand-in chain
 * they are sent on), the sales' daily caps and what the rails spent. No answer then depends on which instance took the request.
 */
export function sqlPurchaseStores(db: SqlDatabase, lock: PurchaseLock): (context: SqlPurchaseStoreOptions) => SqlPurchaseStores {
  return (context) => ({
    store: new SqlPurchaseStore(db, context),
    lock,
    sales: new SqlSaleStore(db),
    funding: new SqlFunding(db),
    transfers: new SqlTransferStore(db),
    walletCaps: new SqlWalletCaps(db),
    caps: new SqlCapCounters(db),
    ledger: new SqlRailLedger(db),
    network: new SqlStablecoinNetwork(db),
  });
}
