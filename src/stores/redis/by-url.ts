import type { Redis } from 'ioredis';
import type { CardRefusal, CardRefusalMemory, Clock, KeySetCache, KeySetCacheEntry } from '../../verifier/ports.js';
import { LIMITS } from '../../spec/limits.js';

/** A JSON value per URL with the time it was taken, expiring when the rule using it no longer can (`lifetime` after `at`). */
class RedisByUrl<V extends { readonly at: number }> {
  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly prefix: string,
    private readonly lifetimeSeconds: number,
  ) {}
  async get(url: string): Promise<V | undefined> {
    const raw = await this.redis.get(this.prefix + url);
    return raw === null ? undefined : (JSON.parse(raw) as V);
  }
  async set(url: string, value: V): Promise<void> {
    const left = value.at + this.lifetimeSeconds - this.clock.now();
    if (left > 0) await this.redis.set(this.prefix + url, JSON.stringify(value), 'EX', left);
  }
}

/** Key sets (and failures to read them), reused for 5 minutes (5.2) by every instance. */
export class RedisKeySetCache extends RedisByUrl<KeySetCacheEntry> implements KeySetCache {
  constructor(redis: Redis, clock: Clock, prefix: string, lifetimeSeconds: number = LIMITS.keySetRereadInterval.value) {
    super(redis, clock, `${prefix}keyset:`, lifetimeSeconds);
  }
}

/** Card refusals, remembered "about 10 minutes" (5.2); kept twice that, as the memory store keeps them. */
export class RedisCardRefusals extends RedisByUrl<CardRefusal> implements CardRefusalMemory {
  constructor(redis: Redis, clock: Clock, prefix: string, lifetimeSeconds: number = 2 * LIMITS.cardRefusalMemory.value) {
    super(redis, clock, `${prefix}card:`, lifetimeSeconds);
  }
}
