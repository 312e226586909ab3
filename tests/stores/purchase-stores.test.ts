import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { MemoryPurchaseStore } from '../../src/purchase/testing/memory.js';
import { MemoryFunding, MemorySaleStore } from '../../src/purchase/testing/sale-memory.js';
import { prepareSchema } from '../../src/stores/sql/schema.js';
import { openSqlite } from '../../src/stores/sql/sqlite.js';
import { SqlFunding } from '../../src/stores/sql/funding.js';
import { SqlPurchaseStore } from '../../src/stores/sql/purchase-store.js';
import { SqlSaleStore } from '../../src/stores/sql/sale-store.js';
import { purchaseStoreContract } from './purchase-contract.js';

purchaseStoreContract('memory', async (options) => {
  const sales = new MemorySaleStore();
  const store = new MemoryPurchaseStore({
    ...options,
    referencedElsewhere: (id) => options.referencedElsewhere?.(id) === true || sales.sale(id) !== undefined,
  });
  return { store, sales, funding: new MemoryFunding((payer) => store.balance(payer)) };
});

const dir = mkdtempSync(join(tmpdir(), 'apc-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

purchaseStoreContract('SQLite', async (options) => {
  const db = await openSqlite(join(dir, `${++files}.sqlite`));
  await prepareSchema(db);
  return { store: new SqlPurchaseStore(db, options), sales: new SqlSaleStore(db), funding: new SqlFunding(db), close: () => db.close() };
});
