import type { Redis } from 'ioredis';
import type { Registration, RegistrationStore, RevocationList } from '../../verifier/ports.js';

/** Registrations per agent URL, kept for good: key continuity (5.2) holds across restarts and instances. */
export class RedisRegistrations implements RegistrationStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}
  async get(agentUrl: string): Promise<Registration | undefined> {
    const raw = await this.redis.get(`${this.prefix}registration:${agentUrl}`);
    return raw === null ? undefined : (JSON.parse(raw) as Registration);
  }
  async put(registration: Registration): Promise<void> {
    await this.redis.set(`${this.prefix}registration:${registration.agentUrl}`, JSON.stringify(registration));
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
