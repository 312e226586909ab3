import type { Redis } from 'ioredis';
import type { Awaitable, Registration, RegistrationStore, RevocationList } from '../../verifier/ports.js';
import type { Invalidations } from './tracking.js';

/**
 * Registrations per agent URL, kept for good: key continuity (5.2) holds across restarts and instances. What an
 * instance read or wrote is answered in-process while Redis reports no change to it (./tracking.ts): a registered
 * agent's requests read nothing.
 */
export class RedisRegistrations implements RegistrationStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly tracked?: Invalidations,
  ) {}
  get(agentUrl: string): Awaitable<Registration | undefined> {
    const key = `${this.prefix}registration:${agentUrl}`;
    const copy = this.tracked?.copy(key);
    if (copy !== undefined) return copy.value as Registration | undefined;
    const read = async () => {
      const raw = await this.redis.get(key);
      return raw === null ? undefined : (JSON.parse(raw) as Registration);
    };
    return this.tracked ? this.tracked.read(key, read) : read();
  }
  async put(registration: Registration): Promise<void> {
    const key = `${this.prefix}registration:${registration.agentUrl}`;
    const before = this.tracked?.now;
    await this.redis.set(key, JSON.stringify(registration));
    if (before !== undefined) this.tracked?.keepAfterWrite(key, registration, before);
  }
}

/** Revoked platform bearer tokens (by jti), one set every instance reads. */
export class RedisRevocations implements RevocationList {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}
  async isRevoked(jti: string): Promise<boolean> {
    return (await this.redis.sismember(`${this.prefix}revoked`, jti)) === 1;
  }
  async revoke(jti: string): Promise<void> {
    await this.redis.sadd(`${this.prefix}revoked`, jti);
  }
}
