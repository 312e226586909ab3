import type { Redis } from 'ioredis';
import type { CardRefusal, CardRefusalMemory, Clock, KeySetCache, KeySetCacheEntry } from '../../verifier/ports.js';
import { LIMITS } from '../../spec/limits.js';

/** Values kept in-process at most, beside Redis; past it the oldest go first. */
const LOCAL_ENTRIES = 10_000;

/**
 * A JSON value per URL with the time it was taken, expiring when the rule using it no longer can (`lifetime` after `at`).
 * A value once stored is never changed before it expires (a new one is taken only after), so what this instance read is
 * kept in-process too until then and read without a round trip; what it has not seen is asked of Redis, which every
 * instance shares.
 */
class RedisByUrl<V extends { readonly at: number }> {
  private readonly local = new Map<string, V>();

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly prefix: string,
    private readonly lifetimeSeconds: number,
  ) {}

  /** What this instance holds is answered at once (the verifier's cached path stays free of promises); the rest from Redis. */
  get(url: string): V | Promise<V | undefined> {
    const known = this.local.get(url);
    if (known && this.left(known) > 0) return known;
    this.local.delete(url);
    return this.redis.get(this.prefix + url).then((raw) => {
      if (raw === null) return undefined;
      const value = JSON.parse(raw) as V;
      this.keep(url, value);
      return value;
    });
  }

  async set(url: string, value: V): Promise<void> {
    const left = this.left(value);
    if (left <= 0) return;
    await this.redis.set(this.prefix + url, JSON.stringify(value), 'EX', left);
    this.keep(url, value);
  }

  private left(value: V): number {
    return value.at + this.lifetimeSeconds - this.clock.now();
  }

  private keep(url: string, value: V): void {
    this.local.delete(url);
    this.local.set(url, value);
    if (this.local.size > LOCAL_ENTRIES) this.local.delete(this.local.keys().next().value!);
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
