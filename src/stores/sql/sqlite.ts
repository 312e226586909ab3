import type BetterSqlite3 from 'better-sqlite3';
import { optionalPackage, StoreUnavailableError } from '../unavailable.js';
import type { SqlDatabase, SqlRow, SqlRunner, SqlValue } from './driver.js';

/** How long a writer waits for another process's transaction on the same file. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * SQLite through better-sqlite3, one file. The driver is synchronous, so a transaction that awaits between its
 * statements would let another caller's statements into it: every statement and transaction of this process runs
 * in turn (`queue`). Other processes on the same file are kept out by BEGIN IMMEDIATE, SQLite's write lock.
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
  const statements = new Map<string, BetterSqlite3.Statement>();
  const run: SqlRunner['all'] = async (sql, params = []) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    const bound = params as SqlValue[];
    if (statement.reader) return statement.all(...bound) as SqlRow[];
    statement.run(...bound);
    return [];
  };
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    dialect: 'sqlite',
    forUpdate: '',
    all: (sql, params) => inTurn(() => run(sql, params)),
    transaction: (work) =>
      inTurn(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work({ all: run });
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      }),
    close: () => inTurn(async () => void db.close()),
  };
}
