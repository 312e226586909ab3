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
  return { ...stores, grantsFail: (failing) => balancesRefuseWrites(db, failing), close: () => db.close() };
}

/** A trigger that fails every write to the balances, as a database refusing it would: the grant's second statement. */
async function balancesRefuseWrites(db: SqlDatabase, failing: boolean): Promise<void> {
  if (db.dialect === 'sqlite') {
    await db.all(
      failing
        ? "CREATE TRIGGER refuse_balances BEFORE INSERT ON balances BEGIN SELECT RAISE(ABORT, 'balances refuse writes'); END"
        : 'DROP TRIGGER refuse_balances',
    );
    return;
  }
  if (!failing) return void (await db.all('DROP TRIGGER refuse_balances ON balances'));
  await db.all("CREATE OR REPLACE FUNCTION refuse_balances() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'balances refuse writes'; END $$ LANGUAGE plpgsql");
  await db.all('CREATE TRIGGER refuse_balances BEFORE INSERT OR UPDATE ON balances FOR EACH ROW EXECUTE FUNCTION refuse_balances()');
}
