import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A secret every instance on this Redis shares, made by the first to ask (SET NX, kept without expiry): what a
 * deployment with `--store` and no `--db` signs its platform tokens with, so a token one instance minted verifies at all.
 */
export async function sharedRedisSecret(redis: Redis, name: string, prefix = 'apc:'): Promise<Uint8Array> {
  const key = `${prefix}secret:${name}`;
  await redis.set(key, randomBytes(32).toString('base64'), 'NX');
  const value = await redis.get(key);
  if (value === null) throw new Error(`the shared secret ${key} vanished as it was read`);
  return new Uint8Array(Buffer.from(value, 'base64'));
}
