import { afterEach, it } from 'vitest';

/**
 * What every adapter contract does around its tests (called inside its describe): `fresh` opens adapters for one test
 * and closes them after it, `test` skips with the reason when the adapter's server is absent here.
 */
export function adapterTests<O, S extends { close?(): Promise<void> }>(open: (options: O) => Promise<S>, skip?: () => string | undefined) {
  let opened: S[] = [];
  afterEach(async () => {
    for (const stores of opened) await stores.close?.();
    opened = [];
  });
  return {
    fresh: async (options: O): Promise<S> => {
      const stores = await open(options);
      opened.push(stores);
      return stores;
    },
    test: (title: string, body: () => Promise<void>) =>
      it(title, async (ctx) => {
        const reason = skip?.();
        if (reason) ctx.skip(reason);
        await body();
      }),
  };
}
