import type { Redis } from 'ioredis';
import type { Clock, NonceStore } from '../../verifier/ports.js';

/**
 * Nonces per agent URL (5.2 "single use per agent URL") shared by every instance: SET NX is the one atomic
 * step, so two instances given the same signed request accept it once. Kept until the signature has expired
 * (and a minute of skew), as the memory store keeps it.
 */
export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly prefix: string,
  ) {}

  spend(agentUrl: string, nonce: string, until: number): Promise<boolean> {
    const ttlMs = Math.max(1, until + 60 - this.clock.now()) * 1000;
    return this.redis.set(this.keyOf(agentUrl, nonce), '1', 'PX', ttlMs, 'NX').then(spent);
  }

  /** Only ever asked for a nonce this store's SET just took for a request then refused: no other request holds it. */
  release(agentUrl: string, nonce: string): Promise<void> {
    return this.redis.del(this.keyOf(agentUrl, nonce)).then(() => undefined);
  }

  private keyOf(agentUrl: string, nonce: string): string {
    return `${this.prefix}nonce:${agentUrl}\n${nonce}`;
  }
}

const spent = (reply: string | null): boolean => reply === 'OK';
