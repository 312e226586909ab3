import type { CachedKeySet, Clock, JsonWebKeySet, KeySetCachePort, KeySetFetcher, Random } from './ports.js';

export class MemoryKeySetCache implements KeySetCachePort {
  private readonly entries = new Map<string, CachedKeySet>();
  get(url: string): CachedKeySet | undefined {
    return this.entries.get(url);
  }
  set(url: string, entry: CachedKeySet): void {
    this.entries.set(url, entry);
  }
}

/** A clock that stands still until moved. */
export class FixedClock implements Clock {
  constructor(private seconds: number) {}
  now(): number {
    return this.seconds;
  }
  advance(seconds: number): void {
    this.seconds += seconds;
  }
}

/**
 * Key sets held in memory by URL; an absent URL rejects like an unreachable host. `reads` counts fetches per URL,
 * so tests can see the cache at work.
 */
export function memoryKeySets(sets: Readonly<Record<string, JsonWebKeySet | unknown>>): KeySetFetcher & { readonly reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const fetcher = async (url: string): Promise<unknown> => {
    reads.set(url, (reads.get(url) ?? 0) + 1);
    if (!Object.hasOwn(sets, url)) throw new Error(`no key set is served at ${url}`);
    return sets[url];
  };
  return Object.assign(fetcher, { reads });
}

/** Deterministic bytes: a counter mixed into the seed, for vectors and tests only. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 1;
  return {
    bytes(length: number): Uint8Array {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        // xorshift32: reproducible, not secure (never use outside tests and vectors).
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        out[i] = state & 0xff;
      }
      return out;
    },
  };
}
