import type { Redis } from 'ioredis';
import type { Clock, DocumentFetcher, VerifierPorts } from '../../verifier/ports.js';
import { isRedisOutage, outageAware } from '../outage.js';
import { RedisCardRefusals, RedisKeySetCache } from './by-url.js';
import { RedisFailureCounter } from './failures.js';
import { RedisNonceStore } from './nonces.js';
import { RedisRegistrations, RedisRevocations } from './registrations.js';
import { invalidationsOf } from './tracking.js';

export interface RedisPorts extends VerifierPorts {
  readonly revocations: RedisRevocations;
}

/**
 * The verifier's ports with every store on one Valkey or Redis server, keys under `prefix` (one deployment's
 * namespace). Failure counts and registrations are kept in-process while Redis reports no change to them
 * (./tracking.ts), so an accepted request of a registered agent makes one round trip: its nonce spent.
 */
export function createRedisPorts(redis: Redis, clock: Clock, fetcher: DocumentFetcher, prefix = 'apc:'): RedisPorts {
  const tracked = invalidationsOf(redis);
  tracked.watch(`${prefix}failures:`);
  tracked.watch(`${prefix}registration:`);
  const reached = <T extends object>(store: T) => outageAware(store, 'the store (--store)', isRedisOutage);
  return {
    clock,
    fetcher,
    nonces: reached(new RedisNonceStore(redis, clock, prefix)),
    failures: reached(new RedisFailureCounter(redis, prefix, undefined, tracked)),
    keySets: reached(new RedisKeySetCache(redis, clock, prefix)),
    cardRefusals: reached(new RedisCardRefusals(redis, clock, prefix)),
    registrations: reached(new RedisRegistrations(redis, prefix, tracked)),
    revocations: reached(new RedisRevocations(redis, prefix)),
  };
}
