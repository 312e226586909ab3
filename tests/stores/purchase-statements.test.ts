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
 * (the challenge read back after the 402 wrote it, the grant a transaction of two inserts). Then the challenge this
 * instance issued was answered without a read, and on PostgreSQL the grant became one statement (1 + 11 on SQLite,
 * 1 + 8 on PostgreSQL); at an instance that did not issue the challenge it came with the credential's charge, the first
 * statement. Now what a credential finds before the lock (its challenge's charge, its token's unreconciled payment, at
 * another instance the challenge) is one read, the same-credential guard's, which the challenge guard does not repeat:
 * 1 + 9 on SQLite, 1 + 6 on PostgreSQL, at either instance. On SQLite the settle and the grant are now one transaction:
 * 1 + 11 statements, but 3 commits for the paid retry where there were 4. Every statement of the paid retry waits for
 * the one before.
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
      // The first three words, and whether the statement reads the challenge too (joined).
      log.push(sql.trim().split(/\s+/).slice(0, 3).join(' ') + (/JOIN challenges\b/.test(sql) ? ' +challenge' : ''));
      return inner.all(sql, params);
    },
  });
  return {
    dialect: db.dialect,
    forUpdate: db.forUpdate,
    ...runner(db),
    // Statements sent at once are written down as one entry, joined by ' & ' (on PostgreSQL one round trip).
    inOrder: (statements) => {
      log.push(statements.map(([sql]) => sql.trim().split(/\s+/).slice(0, 3).join(' ')).join(' & '));
      return db.inOrder(statements);
    },
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

/**
 * What the paid retry runs on either database before it settles the charge. Before: 6 (the credential's charge; the
 * charge that redeemed the challenge read again; the token's unreconciled payment; then under the lock the buyer's
 * charge in flight, the assent, the charge opened). Now what the credential finds before the lock is one read, and the
 * challenge's charge is not read again: 4.
 */
const BEFORE_SETTLE = [
  'SELECT charges.body, charges.state,', // the credential's charge (section 3 row 1, and its challenge redeemed) and its token's unreconciled payment
  'SELECT body, state,', // the buyer's charge in flight
  'INSERT INTO assents', // terms recorded before charging
  'INSERT INTO charges', // the charge opened before the processor is called
];

/**
 * The paid retry at an instance that did not issue the challenge: the challenge comes with the credential's records,
 * in the first statement (joined), where the instance that issued it knows it already.
 */
const FLEET_BEFORE_SETTLE = [`${BEFORE_SETTLE[0]} +challenge`, ...BEFORE_SETTLE.slice(1)];

/**
 * SQLite: the settle and the grant in one transaction, the grant under a savepoint (a grant that fails is undone alone):
 * 7 statements and one commit, where they were 5 and two (the settle committed on its own, then the grant's transaction).
 * On SQLite a commit costs several statements' time.
 */
const SQLITE_SETTLE = [
  'BEGIN',
  'UPDATE charges SET',
  'SAVEPOINT grant_settled',
  'INSERT INTO grants',
  'INSERT INTO balances',
  'RELEASE grant_settled',
  'COMMIT',
];
/**
 * PostgreSQL: the settle and the grant (one statement) sent at once on one connection: 2 statements, 1 round trip
 * (was 2: the grant sent once the settle had answered).
 */
const POSTGRES_SETTLE = ['UPDATE charges SET & WITH granted AS'];

describe('statements sent at once (SqlDatabase.inOrder)', () => {
  const statements = [
    ['CREATE TABLE IF NOT EXISTS sent (n INT PRIMARY KEY)', []],
    ['INSERT INTO sent (n) VALUES (1) RETURNING n', []],
    ['INSERT INTO sent (n) VALUES (1) RETURNING n', []],
    ['SELECT COUNT(*) AS n FROM sent', []],
  ] as const;

  /** In order, each on its own: the duplicate insert fails alone, and the count after it sees the first insert committed. */
  const expectInOrder = (settled: PromiseSettledResult<Record<string, unknown>[]>[]) => {
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(settled[3]!.status === 'fulfilled' && Number(settled[3]!.value[0]!.n)).toBe(1);
  };

  it('SQLite: one after the other, each failing on its own', async () => {
    const db = await openSqlite(join(dir, 'in-order.sqlite'));
    try {
      expectInOrder(await db.inOrder(statements));
    } finally {
      await db.close();
    }
  });

  it('PostgreSQL: on one connection (the same backend first and last), in order, each failing on its own', async (ctx) => {
    if (postgresMissing) ctx.skip(postgresMissing);
    const db = await openPostgres(await pg!.createDatabase());
    try {
      const pid = ['SELECT pg_backend_pid() AS pid', []] as const;
      const settled = await db.inOrder([pid, ...statements, pid]);
      expectInOrder(settled.slice(1, -1));
      const pids = [settled[0]!, settled.at(-1)!].map((r) => (r.status === 'fulfilled' ? r.value[0]!.pid : undefined));
      expect(pids[0]).toBeDefined();
      expect(pids[1]).toBe(pids[0]);
    } finally {
      await db.close();
    }
  });
});

describe('SQL statements per card purchase', () => {
  it('SQLite: 1 for the 402, 11 for the paid retry in 3 commits (the settle and the grant one transaction)', async () => {
    const purchases = await statementsOfPurchases(await openSqlite(join(dir, 'statements.sqlite')));
    // The first 402 also starts the sweep of expired challenges, beside it (a minute later the next 402 does).
    expect(purchases[0]!.asked).toEqual(['SELECT id FROM', 'INSERT INTO challenges']);
    for (const { asked, paid } of purchases.slice(1)) {
      expect(asked).toEqual(['INSERT INTO challenges']);
      expect(paid).toEqual([...BEFORE_SETTLE, ...SQLITE_SETTLE]);
    }
  });

  it('PostgreSQL: 1 for the 402, 6 statements in 5 round trips for the paid retry (the settle and the grant sent at once)', async (ctx) => {
    if (postgresMissing) ctx.skip(postgresMissing);
    const purchases = await statementsOfPurchases(await openPostgres(await pg!.createDatabase()));
    expect(purchases[0]!.asked).toEqual(['SELECT id FROM', 'INSERT INTO challenges']);
    for (const { asked, paid } of purchases.slice(1)) {
      expect(asked).toEqual(['INSERT INTO challenges']);
      expect(paid).toEqual([...BEFORE_SETTLE, ...POSTGRES_SETTLE]);
    }
  });

  it('SQLite, the paid retry at another instance: 11, the challenge read with the charge', async () => {
    const purchases = await statementsOfPurchases(await openSqlite(join(dir, 'fleet.sqlite')), true);
    for (const { paid } of purchases.slice(1)) expect(paid).toEqual([...FLEET_BEFORE_SETTLE, ...SQLITE_SETTLE]);
  });

  it('PostgreSQL, the paid retry at another instance: 6 in 5 round trips, the challenge read with the charge', async (ctx) => {
    if (postgresMissing) ctx.skip(postgresMissing);
    const purchases = await statementsOfPurchases(await openPostgres(await pg!.createDatabase()), true);
    for (const { paid } of purchases.slice(1)) expect(paid).toEqual([...FLEET_BEFORE_SETTLE, ...POSTGRES_SETTLE]);
  });
});
