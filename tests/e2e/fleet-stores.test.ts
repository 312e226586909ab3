import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { openRedis } from '../../src/stores/redis/client.js';
import { RedisPurchaseLock } from '../../src/stores/redis/lock.js';
import { createRedisPorts } from '../../src/stores/redis/ports.js';
import { openPostgres } from '../../src/stores/sql/postgres.js';
import { prepareSchema } from '../../src/stores/sql/schema.js';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { ManualClock } from '../../src/purchase/testing/memory.js';
import { purchaseStoreContract } from '../stores/purchase-contract.js';
import { sqlStoresUnderTest } from '../stores/sql-under-test.js';
import { widgetStoreContract } from '../stores/widget-contract.js';
import { SqlWidgetStore } from '../../src/stores/sql/widget-store.js';
import { whyNoPostgres, whyNoRedis, startPostgres, startRedis, type TestPostgres, type TestServer } from '../stores/servers.js';
import { verifierStoreContract } from '../stores/verifier-contract.js';

/** The adapter contracts over real servers: Redis for the verifier's stores and the lock, PostgreSQL for the purchase records. */
const redisMissing = whyNoRedis();
const postgresMissing = whyNoPostgres();
let redisServer: TestServer | undefined;
let redis: Redis | undefined;
let pg: TestPostgres | undefined;

beforeAll(async () => {
  if (!redisMissing) {
    redisServer = await startRedis();
    redis = await openRedis(redisServer.url);
  }
  if (!postgresMissing) pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await redis?.quit();
  await redisServer?.stop();
  await pg?.stop();
}, 30_000);

let namespaces = 0;
verifierStoreContract(
  'Redis',
  async (clock) => {
    const prefix = `t${++namespaces}:`;
    return { ...createRedisPorts(redis!, clock, createMemoryFetcher({}), prefix), lock: new RedisPurchaseLock(redis!, prefix) };
  },
  () => redisMissing,
);

purchaseStoreContract(
  'PostgreSQL',
  async (options) => {
    const db = await openPostgres(await pg!.createDatabase());
    await prepareSchema(db);
    return sqlStoresUnderTest(db, options);
  },
  () => postgresMissing,
);

widgetStoreContract(
  'PostgreSQL',
  async () => {
    const db = await openPostgres(await pg!.createDatabase());
    await prepareSchema(db);
    const widgets = new SqlWidgetStore(db);
    return { store: widgets, folders: widgets, usage: widgets, close: () => db.close() };
  },
  () => postgresMissing,
);

describe('Redis specifics', () => {
  it('keeps a nonce only until its signature expired (and a minute of skew), and a lock for its lease', async (ctx) => {
    if (redisMissing) ctx.skip(redisMissing);
    const ports = createRedisPorts(redis!, new ManualClock(1_800_000_000), createMemoryFetcher({}), 'ttl:');
    await ports.nonces.spend('https://agents.example/a/alice', 'n1', 1_800_000_100);
    const ttl = await redis!.pttl('ttl:nonce:https://agents.example/a/alice\nn1');
    expect(ttl).toBeGreaterThan(150_000);
    expect(ttl).toBeLessThanOrEqual(160_000);
    await new RedisPurchaseLock(redis!, 'ttl:', 5000).acquire('alice');
    expect(await redis!.pttl('ttl:purchase-lock:alice')).toBeLessThanOrEqual(5000);
  });

  it('answers a key set this instance read from its own copy until it expires, and one another instance stored from Redis', async (ctx) => {
    if (redisMissing) ctx.skip(redisMissing);
    const clock = new ManualClock(1_800_000_000);
    const [one, other] = [0, 1].map(() => createRedisPorts(redis!, clock, createMemoryFetcher({}), 'l1:'));
    const url = 'https://agents.example/a/alice/.well-known/jwks.json';
    const entry = { ok: false as const, code: 'key_set_unreachable' as const, description: 'timed out', at: clock.now() };
    await other!.keySets.set(url, entry);
    expect(await one!.keySets.get(url), 'stored by the other instance, read from Redis').toEqual(entry);
    await redis!.del(`l1:keyset:${url}`);
    expect(one!.keySets.get(url), 'read before: answered at once, without Redis').toEqual(entry);
    clock.advance(300);
    expect(await one!.keySets.get(url), 'expired: asked of Redis again, which no longer has it').toBeUndefined();
  });
});
