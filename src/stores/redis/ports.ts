import type { Redis } from 'ioredis';
import type { Clock, DocumentFetcher, VerifierPorts } from '../../verifier/ports.js';
import { RedisCardRefusals, RedisKeySetCache } from './by-url.js';
import { RedisFailureCounter } from './failures.js';
import { RedisNonceStore } from './nonces.js';
import { RedisRegistrations, RedisRevocations } from './registrations.js';

export interface RedisPorts extends VerifierPorts {
  readonly revocations: RedisRevocations;
}

/** The verifier's ports with every store on one Valkey or Redis server, keys under `prefix` (one deployment's namespace). */
export function createRedisPorts(redis: Redis, clock: Clock, fetcher: DocumentFetcher, prefix = 'apc:'): RedisPorts {
  return {
    clock,
    fetcher,
    nonces: new RedisNonceStore(redis, clock, prefix),
    failures: new RedisFailureCounter(redis, prefix),
    keySets: new RedisKeySetCache(redis, clock, prefix),
    cardRefusals: new RedisCardRefusals(redis, clock, prefix),
    registrations: new RedisRegistrations(redis, prefix),
    revocations: new RedisRevocations(redis, prefix),
  };
}
