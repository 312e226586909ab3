import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerRequest, challengeOf, PACK_CONFIG, paidHeaders, purchasePorts, T0 } from '../../bench/purchase-world.js';
import { decidePurchase, isGranted } from '../../src/purchase/index.js';
import { ManualClock } from '../../src/purchase/testing/index.js';
import type { SqlDatabase, SqlRunner } from '../../src/stores/sql/driver.js';
import { openPostgres } from '../../src/stores/sql/postgres.js';
import { SqlPurchaseStore } from '../../src/stores/sql/purchase-store.js';
import { prepareSchema } from '../../src/stores/sql/schema.js';
import { openSqlite } from '../../src/stores/sql/sqlite.js';
import { startPostgres, type TestPostgres, whyNoPostgres } from './servers.js';

/**
 * The SQL statements of one card purchase (issue 27): the 402 and the paid retry, counted in the driver, a
 * transaction's BEGIN and COMMIT each counted as one (on PostgreSQL each is a round trip). Before: 1 + 12 on both
 * (the challenge read back after the 402 wrote it, the grant a transaction of two inserts). Now the challenge this
 * instance issued is answered without a read, and on PostgreSQL the grant is one statement. At an instance that did
 * not issue the challenge the paid retry read it on its own (12 on SQLite, 9 on PostgreSQL): now it comes with the
 * credential's charge, the first statement.
 */
const dir = mkdtempSync(join(tmpdir(), 'apc-statements-'));
const postgresMissing = whyNoPostgres();
let pg: TestPostgres | undefined;
beforeAll(async () => {
  if (!postgresMissing) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

/** `db` with every statement it runs written down, BEGIN and COMMIT of a transaction included. */
function counted(db: SqlDatabase, log: string[]): SqlDatabase {
  const runner = (inner: SqlRunner): SqlRunner => ({
    all: (sql, params) => {
      log.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
      return inner.all(sql, params);
    },
  });
  return {
    dialect: db.dialect,
    forUpdate: db.forUpdate,
    ...runner(db),
    transaction: (work) => {
      log.push('BEGIN');
      return db.transaction((tx) => work(runner(tx))).finally(() => log.push('COMMIT'));
    },
    close: () => db.close(),
  };
}

/**
 * Three purchases, the 402 and the paid retry each, by one instance (`fleet` false) or with the paid retry taken by a
 * second instance on the same database, which did not issue the challenge (`fleet` true).
 */
async function statementsOfPurchases(db: SqlDatabase, fleet = false) {
  await prepareSchema(db);
  const log: string[] = [];
  const clock = new ManualClock(T0);
  const instance = (seed: string) => ({ ...purchasePorts(seed, new SqlPurchaseStore(counted(db, log), { clock })), clock });
  const asking = instance('statements');
  const paying = fleet ? instance('statements-other') : asking;
  const purchases: { asked: string[]; paid: string[] }[] = [];
  for (let i = 0; i < 3; i++) {
    log.length = 0;
    const asked = await decidePurchase(buyerRequest({}), asking, PACK_CONFIG);
    const askedLog = [...log];
    log.length = 0;
    const paid = await decidePurchase(buyerRequest(paidHeaders(challengeOf(asked), `spt_statements_${i}`)), paying, PACK_CONFIG);
    expect(isGranted(paid), `purchase ${i} answered ${paid.status}`).toBe(true);
    purchases.push({ asked: askedLog, paid: [...log] });
  }
  await db.close();
  return purchases;
}

/** What the paid retry runs on either database, up to the grant. */
const BEFORE_GRANT = [
  'SELECT body, state,', // the same credential's charge (section 3 row 1)
  'SELECT body, state,', // the charge that redeemed the challenge, read again after the challenge was judged
  'SELECT body FROM', // an unreconciled payment under the token
  'SELECT body, state,', // the buyer's charge in flight
  'INSERT INTO assents', // terms recorded before charging
  'INSERT INTO charges', // the charge opened before the processor is called
  'UPDATE charges SET', // settled
];

/**
 * The paid retry at an instance that did not issue the challenge: the credential's charge is read with the challenge,
 * one statement where there were two (the challenge read on its own after the charge); the rest as above.
 */
const FLEET_BEFORE_GRANT = ['SELECT charges.body, charges.state,', ...BEFORE_GRANT.slice(1)];

describe('SQL statements per card purchase', () => {
  it('SQLite: 1 for the 402, 11 for the paid retry (the grant a transaction of two inserts)', async () => {
    const purchases = await statementsOfPurchases(await openSqlite(join(dir, 'statements.sqlite')));
    // The first 402 also starts the sweep of expired challenges, beside it (a minute later the next 402 does).
    expect(purchases[0]!.asked).toEqual(['SELECT id FROM', 'INSERT INTO challenges']);
    for (const { asked, paid } of purchases.slice(1)) {
      expect(asked).toEqual(['INSERT INTO challenges']);
      expect(paid).toEqual([...BEFORE_GRANT, 'BEGIN', 'INSERT INTO grants', 'INSERT INTO balances', 'COMMIT']);
    }
  });

  it('PostgreSQL: 1 for the 402, 8 for the paid retry (the grant one statement)', async (ctx) => {
    if (postgresMissing) ctx.skip(postgresMissing);
    const purchases = await statementsOfPurchases(await openPostgres(await pg!.createDatabase()));
    expect(purchases[0]!.asked).toEqual(['SELECT id FROM', 'INSERT INTO challenges']);
    for (const { asked, paid } of purchases.slice(1)) {
      expect(asked).toEqual(['INSERT INTO challenges']);
      expect(paid).toEqual([...BEFORE_GRANT, 'WITH granted AS']);
    }
  });

  it('SQLite, the paid retry at another instance: 11, the challenge read with the charge', async () => {
    const purchases = await statementsOfPurchases(await openSqlite(join(dir, 'fleet.sqlite')), true);
    for (const { paid } of purchases.slice(1)) expect(paid).toEqual([...FLEET_BEFORE_GRANT, 'BEGIN', 'INSERT INTO grants', 'INSERT INTO balances', 'COMMIT']);
  });

  it('PostgreSQL, the paid retry at another instance: 8, the challenge read with the charge', async (ctx) => {
    if (postgresMissing) ctx.skip(postgresMissing);
    const purchases = await statementsOfPurchases(await openPostgres(await pg!.createDatabase()), true);
    for (const { paid } of purchases.slice(1)) expect(paid).toEqual([...FLEET_BEFORE_GRANT, 'WITH granted AS']);
  });
});
