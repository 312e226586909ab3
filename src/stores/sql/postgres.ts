import type { ReservedSql, Sql, TransactionSql } from 'postgres';
import { isPostgresOutage } from '../outage.js';
import { optionalPackage, redactedUrl, StoreUnavailableError } from '../unavailable.js';
import type { SqlDatabase, SqlRow, SqlRunner } from './driver.js';

/** `?` placeholders as Postgres numbers them. The statements here hold no `?` of their own. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Each statement text numbered once: the same few texts are run again and again. */
const numberedTexts = new Map<string, string>();

/** Statements are prepared (named, parsed and planned once per connection): the texts here are a fixed few. */
function runner(sql: Sql | TransactionSql | ReservedSql): SqlRunner {
  return {
    all: async (text, params = []) => {
      let numberedText = numberedTexts.get(text);
      if (numberedText === undefined) numberedTexts.set(text, (numberedText = numbered(text)));
      return [...(await sql.unsafe<SqlRow[]>(numberedText, [...params], { prepare: true }))];
    },
  };
}

/**
 * Seconds a connection of the pool waits before connecting again after its server went away. The driver's own backoff
 * grows with every failure of the pool to 20 s, and a request waits that long for its connection: under load, a
 * database that is down for a minute then hangs every request (and one that is back stays unused) for 20 s. A short,
 * fixed wait answers each request at once (503) while it is down, and serves again as soon as it is back.
 */
const RECONNECT_WAIT_S = 0.1;

/** PostgreSQL through postgres (porsager): a pool of connections, reached once before serving so a wrong URL fails at start. */
export async function openPostgres(url: string): Promise<SqlDatabase> {
  const { default: postgres } = await optionalPackage('postgres', () => import('postgres'), '--db postgres://');
  const sql = postgres(url, { max: 8, connect_timeout: 3, backoff: () => RECONNECT_WAIT_S, onnotice: () => undefined });
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end({ timeout: 0 });
    throw new StoreUnavailableError(`cannot reach the database at ${redactedUrl(url)}: ${(error as Error).message}`, {
      unreachable: isPostgresOutage(error),
    });
  }
  return {
    dialect: 'postgres',
    forUpdate: 'FOR UPDATE',
    ...runner(sql),
    // A reserved connection runs what it is given in order, and sends a statement while the one before is in flight.
    inOrder: async (statements) => {
      const reserved = await sql.reserve();
      try {
        const on = runner(reserved);
        return await Promise.allSettled(statements.map(([text, params]) => on.all(text, params)));
      } finally {
        reserved.release();
      }
    },
    transaction: async <T>(work: (tx: SqlRunner) => Promise<T>) => (await sql.begin((tx) => work(runner(tx)))) as T,
    close: () => sql.end({ timeout: 5 }),
  };
}
