import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { MemoryPurchaseStore } from '../../src/purchase/testing/memory.js';
import { MemoryCapCounters, MemoryFunding, MemorySaleStore } from '../../src/purchase/testing/sale-memory.js';
import { MemoryTransferStore, MemoryWalletCaps } from '../../src/purchase/testing/stablecoin-memory.js';
import { PurchasedBalanceLedger } from '../../src/reference/paid/balance-port.js';
import { prepareSchema } from '../../src/stores/sql/schema.js';
import { openSqlite } from '../../src/stores/sql/sqlite.js';
import { purchaseStoreContract } from './purchase-contract.js';
import { sqlStoresUnderTest } from './sql-under-test.js';

purchaseStoreContract('memory', async (options) => {
  const sales = new MemorySaleStore();
  const transfers = new MemoryTransferStore();
  const store = new MemoryPurchaseStore({
    ...options,
    referencedElsewhere: (id) => options.referencedElsewhere?.(id) === true || sales.sale(id) !== undefined || transfers.transferOf(id) !== undefined,
  });
  return {
    store,
    sales,
    funding: new MemoryFunding((payer) => store.balance(payer)),
    transfers,
    walletCaps: new MemoryWalletCaps(),
    caps: new MemoryCapCounters(),
    ledger: new PurchasedBalanceLedger(store),
    grantsFail: async (failing) => {
      store.grant = failing
        ? () => {
            throw new Error('the grant store refuses writes');
          }
        : MemoryPurchaseStore.prototype.grant.bind(store);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'apc-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

purchaseStoreContract('SQLite', async (options) => {
  const db = await openSqlite(join(dir, `${++files}.sqlite`));
  await prepareSchema(db);
  return sqlStoresUnderTest(db, options);
});
