import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FailureCounter } from '../../verifier/ports.js';
import { LIMITS } from '../../spec/limits.js';

/**
 * Failed signatures per client address, one sorted set per address scored by time: the count is a range of
 * scores, so the window slides, and every instance counts the failures of all. Scores are the verifier's clock;
 * the key's expiry only drops an address that stopped failing.
 */
export class RedisFailureCounter implements FailureCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowSeconds: number = LIMITS.failedSignaturesWindow.value,
  ) {}

  async count(address: string, now: number, windowSeconds: number): Promise<number> {
    return this.redis.zcount(this.key(address), `(${now - windowSeconds}`, now);
  }

  async record(address: string, now: number): Promise<void> {
    const key = this.key(address);
    await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', now - this.windowSeconds)
      .zadd(key, now, `${now}:${randomUUID()}`)
      .expire(key, this.windowSeconds + 1)
      .exec();
  }

  private key(address: string): string {
    return `${this.prefix}failures:${address}`;
  }
}
