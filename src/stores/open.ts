import { resolve } from 'node:path';
import { generateEd25519Jwk, type Ed25519PrivateJwk } from '../httpsig/index.js';
import { MemoryPurchaseLock } from '../purchase/testing/memory.js';
import type { Clock, DocumentFetcher } from '../verifier/ports.js';
import { isPostgresOutage, isRedisOutage, outageAware } from './outage.js';
import { openRedis } from './redis/client.js';
import { RedisPurchaseLock } from './redis/lock.js';
import { createRedisPorts, type RedisPorts } from './redis/ports.js';
import { sharedRedisSecret } from './redis/secret.js';
import { closeInvalidations } from './redis/tracking.js';
import type { SqlDatabase } from './sql/driver.js';
import { openPostgres } from './sql/postgres.js';
import { prepareSchema } from './sql/schema.js';
import { sharedSecret } from './sql/secret.js';
import { openSqlite } from './sql/sqlite.js';
import { sqlPurchaseStores } from './sql/stores.js';
import { SqlWidgetStore } from './sql/widget-store.js';
import { redactedUrl, StoreUnavailableError } from './unavailable.js';

/** Whether `--db` names a PostgreSQL server rather than a SQLite file. */
function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

export interface StoreOptions {
  /** A redis:// (or rediss://) URL: the verifier's state and the purchase lock, shared by every instance. */
  readonly store?: string;
  /** A postgres:// URL, or a SQLite file (relative to `cwd`): the purchase records. */
  readonly db?: string;
  readonly cwd: string;
}

export interface OpenedStores {
  readonly ports?: (clock: Clock, fetcher: DocumentFetcher) => RedisPorts;
  readonly purchaseStores?: ReturnType<typeof sqlPurchaseStores>;
  /** Shared by every instance on the database, so a challenge one issued verifies at another and after a restart. */
  readonly challengeSecret?: Uint8Array;
  /** The widget pipeline's folders, records and tool-call rows, on the database: a widget one instance published, all serve. */
  readonly widgets?: SqlWidgetStore;
  /**
   * The key platform bearer tokens are signed with, the same at every instance on the database (or, without one, on
   * the store): a token one minted verifies at all.
   */
  readonly platformTokenKey?: Ed25519PrivateJwk;
  close(): Promise<void>;
}

/** Connects to the stores named, each reached before anything is served (a StoreUnavailableError otherwise, with nothing left open). */
export async function openStores(options: StoreOptions): Promise<OpenedStores> {
  const redis = options.store === undefined ? undefined : await openRedis(options.store);
  let db: SqlDatabase | undefined;
  try {
    if (options.db !== undefined) {
      db = isPostgresUrl(options.db)
        ? outageAware(await openPostgres(options.db), 'the database (--db)', isPostgresOutage)
        : await openSqlite(resolve(options.cwd, options.db));
      await prepareSchema(db);
    }
  } catch (error) {
    await db?.close();
    redis?.disconnect();
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(`cannot use the database ${redactedUrl(options.db!)}: ${(error as Error).message}`);
  }
  let tokenSeed: Uint8Array | undefined;
  try {
    tokenSeed = db ? await sharedSecret(db, 'platform-token-key') : redis ? await sharedRedisSecret(redis, 'platform-token-key') : undefined;
  } catch (error) {
    await db?.close();
    redis?.disconnect();
    throw new StoreUnavailableError(`cannot read the platform-token key from the stores: ${(error as Error).message}`);
  }
  const lock = redis ? outageAware(new RedisPurchaseLock(redis, 'apc:'), 'the store (--store)', isRedisOutage) : new MemoryPurchaseLock();
  return {
    ...(redis ? { ports: (clock: Clock, fetcher: DocumentFetcher) => createRedisPorts(redis, clock, fetcher) } : {}),
    ...(db
      ? {
          purchaseStores: sqlPurchaseStores(db, lock),
          challengeSecret: await sharedSecret(db, 'challenge-id'),
          widgets: new SqlWidgetStore(db),
        }
      : {}),
    ...(tokenSeed ? { platformTokenKey: generateEd25519Jwk(tokenSeed).privateJwk } : {}),
    async close() {
      await db?.close();
      if (redis) closeInvalidations(redis);
      await redis?.quit();
    },
  };
}
