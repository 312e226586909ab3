import type BetterSqlite3 from 'better-sqlite3';
import { optionalPackage, StoreUnavailableError } from '../unavailable.js';
import type { SqlDatabase, SqlRow, SqlRunner, SqlValue } from './driver.js';
import { checkpointsOffTheEventLoop } from './sqlite-checkpoints.js';

/** How long a writer waits for another process's transaction on the same file. */
const BUSY_TIMEOUT_MS = 5000;
/** SQLite's own default: a checkpoint inside the commit that grows the log past this many pages. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

/**
 * SQLite through better-sqlite3, one file. The driver is synchronous, so a transaction that awaits between its
 * statements would let another caller's statements into it: every statement and transaction of this process runs
 * in turn (`queue`), and a statement asked while nothing is queued runs at once. Other processes on the same file are
 * kept out by BEGIN IMMEDIATE, SQLite's write lock.
 *
 * The log is written ahead (WAL) and synced at checkpoints only (synchronous=NORMAL): a commit survives the process
 * crashing, and a power loss can take back the last commits but never leaves the file inconsistent. Checkpoints run
 * in a thread of their own (./sqlite-checkpoints.ts), not inside a commit.
 */
export async function openSqlite(file: string): Promise<SqlDatabase> {
  const { default: Database } = await optionalPackage('better-sqlite3', () => import('better-sqlite3'), '--db FILE');
  let db: BetterSqlite3.Database;
  try {
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  } catch (error) {
    throw new StoreUnavailableError(`cannot open the database file ${file}: ${(error as Error).message}`);
  }
  const checkpoints = checkpointsOffTheEventLoop(file, BUSY_TIMEOUT_MS, {
    automatic: (on) => {
      if (db.open) db.pragma(`wal_autocheckpoint = ${on ? AUTOMATIC_CHECKPOINT_PAGES : 0}`);
    },
    // Only between statements of this process: a transaction in progress leaves it to the next pass.
    catchUp: () => {
      if (db.open && waiting === 0 && !db.inTransaction) db.pragma('wal_checkpoint(PASSIVE)');
    },
  });
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepared = (sql: string): BetterSqlite3.Statement => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const runNow = (sql: string, params: readonly SqlValue[] = []): SqlRow[] => {
    const statement = prepared(sql);
    const bound = params as SqlValue[];
    let rows: SqlRow[] = [];
    if (statement.reader) rows = statement.all(...bound) as SqlRow[];
    else statement.run(...bound);
    if (!statement.readonly && !db.inTransaction) checkpoints.committed();
    return rows;
  };
  const run: SqlRunner['all'] = async (sql, params) => runNow(sql, params);
  let queue: Promise<unknown> = Promise.resolve();
  /** Work queued or running: while there is any, a statement waits its turn. */
  let waiting = 0;
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    waiting++;
    const next = queue.then(work).finally(() => waiting--);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    dialect: 'sqlite',
    forUpdate: '',
    all: (sql, params) => {
      if (waiting > 0) return inTurn(() => run(sql, params));
      try {
        return Promise.resolve(runNow(sql, params));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    inOrder: (statements) => inTurn(() => Promise.allSettled(statements.map(([sql, params]) => run(sql, params)))),
    transaction: (work) =>
      inTurn(async () => {
        prepared('BEGIN IMMEDIATE').run();
        try {
          const result = await work({ all: run });
          prepared('COMMIT').run();
          checkpoints.committed();
          return result;
        } catch (error) {
          if (db.inTransaction) prepared('ROLLBACK').run();
          throw error;
        }
      }),
    close: () =>
      inTurn(async () => {
        await checkpoints.close();
        db.close();
      }),
  };
}
