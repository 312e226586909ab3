/**
 * The ports the SDK-auth core takes (docs/architecture.md): it owns no clock, randomness, network or storage.
 * In-memory adapters live in ./memory.ts.
 */
export type Awaitable<T> = T | Promise<T>;

/** Seconds since the epoch. */
export interface Clock {
  now(): number;
}

/** Unpredictable bytes (the jti of a minted token). */
export interface Random {
  bytes(length: number): Uint8Array;
}

/**
 * Reads a key set: answers the parsed JSON document at the URL. It may throw or reject when the document cannot be
 * read; the core turns that into a refusal. Fetch rules (https, size, time) are the adapter's job.
 */
export type KeySetFetcher = (url: string) => Awaitable<unknown>;

/** A key set as read, with the clock second it was read at. */
export interface CachedKeySet {
  readonly jwks: JsonWebKeySet;
  readonly fetchedAt: number;
}

/** Key sets by URL; the core decides freshness from fetchedAt and jwks_cache_ttl. */
export interface KeySetCachePort {
  get(url: string): Awaitable<CachedKeySet | undefined>;
  set(url: string, entry: CachedKeySet): Awaitable<void>;
}

/** A JWK Set (RFC 7517 section 5) as the core reads it: only `keys` matters. */
export interface JsonWebKeySet {
  readonly keys: readonly JsonWebKeyEntry[];
}

export interface JsonWebKeyEntry {
  readonly kty: string;
  readonly kid?: string;
  readonly alg?: string;
  readonly use?: string;
  readonly [member: string]: unknown;
}

export interface SdkAuthPorts {
  readonly clock: Clock;
  readonly fetchKeySet: KeySetFetcher;
  readonly keySetCache: KeySetCachePort;
}
