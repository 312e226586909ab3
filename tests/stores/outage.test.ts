import { describe, expect, it } from 'vitest';
import { isPostgresOutage, isRedisOutage, outageAware } from '../../src/stores/outage.js';
import { StoreUnavailableError } from '../../src/stores/unavailable.js';

class Replied extends Error {
  override readonly name = 'ReplyError';
}

const withCode = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

describe('outageAware', () => {
  const store = outageAware(
    {
      base: 2,
      async read(error?: Error) {
        if (error) throw error;
        return this.base;
      },
    },
    'the store (--store)',
    isRedisOutage,
  );

  it('passes answers and the store fields through', async () => {
    expect(await store.read()).toBe(2);
    expect(store.base).toBe(2);
  });

  it('turns a failure to reach the store into StoreUnavailableError naming it, with the cause', async () => {
    const gone = new Error('Connection is closed.');
    const error = await store.read(gone).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe('the store (--store) is unreachable: Connection is closed.');
    expect((error as Error).cause).toBe(gone);
  });

  it("leaves the store's own answers and errors of our code as they are", async () => {
    const replied = new Replied('WRONGTYPE');
    await expect(store.read(replied)).rejects.toBe(replied);
    const ours = new TypeError('not a function');
    await expect(store.read(ours)).rejects.toBe(ours);
  });
});

describe('isPostgresOutage', () => {
  it('is a connection failure or a server shutting down, never a statement the server refused', () => {
    for (const code of ['ECONNREFUSED', 'CONNECTION_CLOSED', 'CONNECT_TIMEOUT', '57P01']) expect(isPostgresOutage(withCode(code)), code).toBe(true);
    for (const code of ['23505', '40001', '42P01']) expect(isPostgresOutage(withCode(code)), code).toBe(false);
    expect(isPostgresOutage(new Error('no code'))).toBe(false);
  });
});
