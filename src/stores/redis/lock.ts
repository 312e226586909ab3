import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { PurchaseLock } from '../../purchase/machine/ports/purchase.js';

/** Deletes the lock only while it is still ours: a holder whose lease ran out must not free the next holder's. */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * One purchase at a time per buyer across every instance (7.4 purchase_in_flight). The lock is a lease, so an
 * instance that dies holding it blocks the buyer for `leaseMs` at most; Redis down throws (purchase_lock_unavailable).
 */
export class RedisPurchaseLock implements PurchaseLock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs = 30_000,
  ) {}

  async acquire(buyer: string): Promise<(() => Promise<void>) | null> {
    const key = `${this.prefix}purchase-lock:${buyer}`;
    const token = randomUUID();
    if ((await this.redis.set(key, token, 'PX', this.leaseMs, 'NX')) !== 'OK') return null;
    return async () => {
      await this.redis.eval(RELEASE, 1, key, token);
    };
  }
}
