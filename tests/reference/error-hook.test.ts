import { afterEach, describe, expect, it } from 'vitest';
import { CaughtErrors } from '../../src/harness/caught-errors.js';
import { switchDeviation } from '../../src/mutants/active.js';
import { MUTANTS } from '../../src/mutants/catalogue.js';
import { createMemoryFetcher } from '../../src/fetch/memory-fetcher.js';
import { createReferencePlatform } from '../../src/reference/platform.js';
import type { Route } from '../../src/reference/routes.js';
import { serveReference } from '../../src/reference/serve.js';
import { PLATFORM_ERROR_CODES } from '../../src/reference/routes.js';

/** The reference reports what it catches instead of turning it into a silent 500. */
const broken: Route = {
  name: 'broken',
  path: '/broken',
  access: 'public',
  methods: {
    GET: () => {
      throw new RangeError('the route broke');
    },
  },
};

afterEach(() => switchDeviation(undefined));

describe('the onError hook', () => {
  it('still answers 500 internal, and hands the hook the exception and where it happened', async () => {
    const caught: Array<{ error: unknown; where: string }> = [];
    const platform = createReferencePlatform({
      authority: 'platform.example',
      fetcher: createMemoryFetcher({}),
      routes: [broken],
      onError: (error, where) => caught.push({ error, where }),
    });
    const response = await platform.fetch(new Request('https://platform.example/broken'), { clientAddress: '192.0.2.1' });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(PLATFORM_ERROR_CODES.internal);
    expect(caught).toHaveLength(1);
    expect(caught[0]!.error).toBeInstanceOf(RangeError);
    expect(caught[0]!.where).toBe('GET /broken (route broken)');
  });

  it('a hook that throws does not break the answer', async () => {
    const platform = createReferencePlatform({
      authority: 'platform.example',
      fetcher: createMemoryFetcher({}),
      routes: [broken],
      onError: () => {
        throw new Error('hook');
      },
    });
    expect((await platform.fetch(new Request('https://platform.example/broken'), { clientAddress: '192.0.2.1' })).status).toBe(500);
  });

  it('serve passes its hook to the platform it binds', async () => {
    const caught: string[] = [];
    const served = await serveReference({ platform: { routes: [broken] }, onError: (_error, where) => caught.push(where) });
    try {
      expect((await fetch(`${served.url}/broken`)).status).toBe(500);
      expect(caught).toEqual(['GET /broken (route broken)']);
    } finally {
      await served.close();
    }
  });
});

describe('the in-process targets surface what the reference caught', () => {
  const answer = (caught: CaughtErrors) =>
    caught.around(async () => {
      caught.hook(new RangeError('the route broke'), 'GET /broken');
      return 'a 500';
    });

  it('the check fails with the exception when no mutant is switched on', async () => {
    await expect(answer(new CaughtErrors())).rejects.toThrow(
      /^the embedded reference failed while answering GET \/broken \(a bug of the reference, not of the check\): RangeError: the route broke/,
    );
  });

  it('under a mutant the 500 stands as the answer', async () => {
    switchDeviation(MUTANTS[0]);
    await expect(answer(new CaughtErrors())).resolves.toBe('a 500');
  });
});
