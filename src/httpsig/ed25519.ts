import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, webcrypto, type KeyObject } from 'node:crypto';
import { ED25519_JWK } from '../spec/index.js';
import { decodeBase64url } from './base64url.js';

export const ED25519_KEY_BYTES = 32;
export const ED25519_SIGNATURE_BYTES = 64;

export interface Ed25519PrivateJwk {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
  readonly d: string;
}
export interface Ed25519PublicJwkShape {
  readonly kty: 'OKP';
  readonly crv: 'Ed25519';
  readonly x: string;
}

const KTY = ED25519_JWK.kty as 'OKP';
const CRV = ED25519_JWK.crv as 'Ed25519';

/** RFC 8410 PKCS #8 wrapping of a 32-byte Ed25519 seed: the fixed prefix, then the seed. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const PUBLIC_KEY_CACHE_LIMIT = 1024;
const publicKeys = new Map<string, KeyObject>();

/** Keeps `value` under `x`, the oldest key going first once `cache` is full (a Map iterates in insertion order). */
function keep<V>(cache: Map<string, V>, x: string, value: V): V {
  if (cache.size >= PUBLIC_KEY_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(x, value);
  return value;
}

function publicKeyFor(x: string): KeyObject | null {
  const cached = publicKeys.get(x);
  if (cached !== undefined) return cached;
  if (decodeBase64url(x, ED25519_KEY_BYTES) === null) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: KTY, crv: CRV, x }, format: 'jwk' });
  } catch {
    return null;
  }
  return keep(publicKeys, x, key);
}

/** Ed25519 (RFC 8032) over the base bytes, no prehash (RFC 9421 §3.3.6). False on any bad input, never throws. */
export function ed25519Verify(publicX: string, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== ED25519_SIGNATURE_BYTES) return false;
  const key = publicKeyFor(publicX);
  if (key === null) return false;
  try {
    return verify(null, data, key, signature);
  } catch {
    return false;
  }
}

const threadKeys = new Map<string, Promise<webcrypto.CryptoKey | null>>();

function threadKeyFor(x: string): Promise<webcrypto.CryptoKey | null> {
  const cached = threadKeys.get(x);
  if (cached !== undefined) return cached;
  if (decodeBase64url(x, ED25519_KEY_BYTES) === null) return Promise.resolve(null);
  return keep(
    threadKeys,
    x,
    webcrypto.subtle.importKey('jwk', { kty: KTY, crv: CRV, x }, { name: 'Ed25519' }, false, ['verify']).catch(() => null),
  );
}

/**
 * ed25519Verify on libuv's thread pool (WebCrypto's verify), so the event loop answers other requests meanwhile: what a
 * server verifying many requests at once wants. The same answers: false on any bad input, never rejects.
 */
export async function ed25519VerifyOffThread(publicX: string, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  if (signature.length !== ED25519_SIGNATURE_BYTES) return false;
  const key = await threadKeyFor(publicX);
  if (key === null) return false;
  try {
    return await webcrypto.subtle.verify('Ed25519', key, signature, data);
  } catch {
    return false;
  }
}

function privateKeyFor(jwk: { readonly x: string; readonly d: string }): KeyObject {
  if (decodeBase64url(jwk.d, ED25519_KEY_BYTES) === null) throw new TypeError('d is not a 32-byte base64url Ed25519 seed');
  const key = createPrivateKey({ key: { kty: KTY, crv: CRV, x: jwk.x, d: jwk.d }, format: 'jwk' });
  // node:crypto derives the public key from d and ignores x, so a mismatched pair would sign under a key
  // other than the one its keyid names.
  if (createPublicKey(key).export({ format: 'jwk' }).x !== jwk.x) throw new TypeError('x is not the public key of d');
  return key;
}

export function ed25519Sign(privateJwk: { readonly x: string; readonly d: string }, data: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, data, privateKeyFor(privateJwk)));
}

/** A new Ed25519 key pair as JWKs; deterministic when a 32-byte seed is given. */
export function generateEd25519Jwk(seed?: Uint8Array): { privateJwk: Ed25519PrivateJwk; publicJwk: Ed25519PublicJwkShape } {
  let key: KeyObject;
  if (seed === undefined) {
    key = generateKeyPairSync('ed25519').privateKey;
  } else {
    if (seed.length !== ED25519_KEY_BYTES) throw new TypeError(`an Ed25519 seed is ${ED25519_KEY_BYTES} bytes`);
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }
  const { x, d } = key.export({ format: 'jwk' });
  if (typeof x !== 'string' || typeof d !== 'string') throw new Error('node:crypto exported no Ed25519 JWK');
  return { privateJwk: { kty: KTY, crv: CRV, x, d }, publicJwk: { kty: KTY, crv: CRV, x } };
}
