import type { Clock, PurchaseLock } from '../../purchase/machine/ports/purchase.js';
import type { SqlDatabase } from './driver.js';
import { SqlFunding } from './funding.js';
import { SqlPurchaseStore } from './purchase-store.js';
import { SqlSaleStore } from './sale-store.js';

export interface SqlPurchaseStores {
  readonly store: SqlPurchaseStore;
  readonly lock: PurchaseLock;
  readonly sales: SqlSaleStore;
  readonly funding: SqlFunding;
}

/** The purchase machine's records on one database, with the lock given (Redis for a fleet, memory for one instance). */
export function sqlPurchaseStores(
  db: SqlDatabase,
  lock: PurchaseLock,
): (context: { readonly clock: Clock; readonly referencedElsewhere: (challengeId: string) => boolean }) => SqlPurchaseStores {
  return (context) => ({ store: new SqlPurchaseStore(db, context), lock, sales: new SqlSaleStore(db), funding: new SqlFunding(db) });
}
