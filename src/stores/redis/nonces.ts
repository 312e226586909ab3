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
    const key = `${this.prefix}nonce:${agentUrl}\n${nonce}`;
    return this.redis.set(key, '1', 'PX', ttlMs, 'NX').then(spent);
  }
}

const spent = (reply: string | null): boolean => reply === 'OK';
