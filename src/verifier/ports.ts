import type { AUTH_CODES } from '../spec/auth-errors.js';
/**
 * The ports the reference verifier takes (docs/architecture.md). The verifier owns no clock, network or
 * storage; in-memory adapters live in ./memory-stores.ts, the real document fetcher in src/fetch/.
 */
export type Awaitable<T> = T | Promise<T>;

/** Seconds since the epoch. */
export interface Clock {
  now(): number;
}

/** Why a document could not be read under the fetch rules of 5.2. */
export type FetchFailureReason = 'not-https' | 'redirect' | 'status' | 'too-large' | 'timeout' | 'address-refused' | 'dns' | 'network' | 'invalid-url';

export type FetchOutcome =
  | {
      readonly ok: true;
      readonly url: string;
      readonly status: 200;
      /** Lower-case header names. */
      readonly headers: Readonly<Record<string, string>>;
      readonly body: Uint8Array;
    }
  | {
      readonly ok: false;
      readonly url: string;
      readonly reason: FetchFailureReason;
      /** One sentence a person can act on, e.g. "answered 302 (redirects are not followed)". */
      readonly detail: string;
      readonly status?: number;
    };

/** Reads a key set, key directory or agent card. Implementations enforce every fetch rule of 5.2. */
export interface DocumentFetcher {
  fetch(url: string): Promise<FetchOutcome>;
}

/** Single-use nonces per agent URL. */
export interface NonceStore {
  /** Records the nonce; returns false when it was already recorded for this agent URL. `until` is when it may be forgotten. */
  spend(agentUrl: string, nonce: string, until: number): Awaitable<boolean>;
  /**
   * Forgets a nonce this store recorded. A store that can is asked to spend a request's nonces while its signatures
   * are checked (a round trip that overlaps the Ed25519 check), and to forget them when the request is refused before
   * its nonces were judged; one that cannot is asked once the signatures verified.
   */
  release?(agentUrl: string, nonce: string): Awaitable<void>;
}

/** Failed signed requests per client address. */
export interface FailureCounter {
  /** Failures recorded for the address at times t with now - t < windowSeconds. */
  count(address: string, now: number, windowSeconds: number): Awaitable<number>;
  record(address: string, now: number): Awaitable<void>;
}

/** A key of a key set with its RFC 7638 thumbprint, computed once when the set is read. */
export interface PublishedKey {
  readonly thumbprint: string;
  readonly jwk: Ed25519PublicJwk;
}

/** A cached read of a key set: the keys, or the refusal it produced. */
export type KeySetCacheEntry =
  | { readonly ok: true; readonly keys: readonly PublishedKey[]; readonly at: number }
  | {
      readonly ok: false;
      readonly code: typeof AUTH_CODES.key_set_unreachable | typeof AUTH_CODES.key_set_invalid;
      readonly description: string;
      readonly at: number;
    };

export interface KeySetCache {
  get(keySetUrl: string): Awaitable<KeySetCacheEntry | undefined>;
  set(keySetUrl: string, entry: KeySetCacheEntry): Awaitable<void>;
}

export interface CardRefusal {
  readonly code: typeof AUTH_CODES.card_unreachable | typeof AUTH_CODES.card_not_self_naming | typeof AUTH_CODES.card_key_set_mismatch;
  readonly description: string;
  readonly at: number;
}

/** Card refusals per agent URL (remembered about 10 minutes). */
export interface CardRefusalMemory {
  get(agentUrl: string): Awaitable<CardRefusal | undefined>;
  set(agentUrl: string, refusal: CardRefusal): Awaitable<void>;
}

export interface Registration {
  readonly agentUrl: string;
  /** RFC 7638 thumbprints of the keys the registration holds. */
  readonly thumbprints: readonly string[];
  readonly registeredAt: number;
}

export interface RegistrationStore {
  get(agentUrl: string): Awaitable<Registration | undefined>;
  put(registration: Registration): Awaitable<void>;
}

/** Platform bearer tokens that were revoked (by jti). */
export interface RevocationList {
  isRevoked(jti: string): Awaitable<boolean>;
}

export interface Ed25519PublicJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly use?: string;
  readonly kid?: string;
}

/** Checks an Ed25519 signature over `data` by the key whose `x` is given (RFC 8032, no prehash). */
export type Ed25519Verifier = (publicX: string, data: Uint8Array, signature: Uint8Array) => Awaitable<boolean>;

export interface VerifierPorts {
  /** Where signatures are checked: in the caller's thread (ed25519Verify) when absent; `serve` checks them off its event loop. */
  readonly ed25519?: Ed25519Verifier;
  readonly clock: Clock;
  readonly fetcher: DocumentFetcher;
  readonly nonces: NonceStore;
  readonly failures: FailureCounter;
  readonly keySets: KeySetCache;
  readonly cardRefusals: CardRefusalMemory;
  readonly registrations: RegistrationStore;
  readonly revocations: RevocationList;
}
