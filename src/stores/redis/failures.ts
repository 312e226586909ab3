import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Awaitable, FailureCounter } from '../../verifier/ports.js';
import { LIMITS } from '../../spec/limits.js';
import type { Invalidations } from './tracking.js';

/** The failure times of one address read at one moment: every score after `from`. */
interface Window {
  readonly from: number;
  readonly scores: readonly number[];
}

/**
 * Failed signatures per client address, one sorted set per address scored by time: the count is a range of
 * scores, so the window slides, and every instance counts the failures of all. Scores are the verifier's clock;
 * the key's expiry only drops an address that stopped failing.
 *
 * What an instance read of an address is kept in-process while Redis reports no change to it (./tracking.ts), and the
 * sliding is done here: an address that failed nothing costs no round trip, and a recorded failure is one.
 */
export class RedisFailureCounter implements FailureCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowSeconds: number = LIMITS.failedSignaturesWindow.value,
    private readonly tracked?: Invalidations,
  ) {}

  count(address: string, now: number, windowSeconds: number): Awaitable<number> {
    const key = this.key(address);
    const copy = this.tracked?.copy(key);
    if (copy !== undefined && now - windowSeconds >= (copy.value as Window).from) return countIn(copy.value as Window, now, windowSeconds);
    const from = Math.min(now - this.windowSeconds, now - windowSeconds);
    const read = async (): Promise<Window> => {
      const flat = await this.redis.zrangebyscore(key, `(${from}`, '+inf', 'WITHSCORES');
      const scores: number[] = [];
      for (let i = 1; i < flat.length; i += 2) scores.push(Number(flat[i]));
      return { from, scores };
    };
    return (this.tracked ? this.tracked.read(key, read) : read()).then((window) => countIn(window, now, windowSeconds));
  }

  async record(address: string, now: number): Promise<void> {
    const key = this.key(address);
    const before = this.tracked?.now;
    const copy = this.tracked?.copy(key)?.value as Window | undefined;
    // One transaction in one write (one round trip); not a script, whose writes Redis reports back to its caller.
    await this.redis
      .multi()
      .zremrangebyscore(key, '-inf', now - this.windowSeconds)
      .zadd(key, now, `${now}:${randomUUID()}`)
      .expire(key, this.windowSeconds + 1)
      .exec();
    // This connection's own writes are not reported back to it (NOLOOP): the copy is brought up to date here, and
    // kept only when nothing else changed the set meanwhile.
    if (copy === undefined || before === undefined) this.tracked?.forget(key);
    else this.tracked?.keepAfterWrite(key, { from: copy.from, scores: [...copy.scores.filter((t) => t > now - this.windowSeconds), now] }, before);
  }

  private key(address: string): string {
    return `${this.prefix}failures:${address}`;
  }
}

/** Failures at times t with now - windowSeconds < t <= now, as ZCOUNT (now - windowSeconds, now] counts them. */
function countIn(window: Window, now: number, windowSeconds: number): number {
  let n = 0;
  for (const t of window.scores) if (t > now - windowSeconds && t <= now) n++;
  return n;
}
