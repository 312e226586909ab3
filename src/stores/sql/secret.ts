import { randomBytes } from 'node:crypto';
import type { SqlDatabase } from './driver.js';

/**
 * A secret every instance on this database shares, made by the first to ask: the key challenge ids are bound
 * with, so a challenge one instance issued verifies at another and after a restart.
 */
export async function sharedSecret(db: SqlDatabase, name: string): Promise<Uint8Array> {
  await db.all('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, randomBytes(32).toString('base64')]);
  const [row] = await db.all('SELECT value FROM secrets WHERE name = ?', [name]);
  return new Uint8Array(Buffer.from(row!.value as string, 'base64'));
}
