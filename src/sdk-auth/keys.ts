import { calculateJwkThumbprint, exportJWK, importJWK, type JWK } from 'jose';
import { SDK_JWT_ALGORITHMS, type SdkJwtAlgorithm } from '../spec/sdk-auth.js';
import type { SdkSigningKey } from './mint-token.js';
import type { JsonWebKeyEntry } from './ports.js';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** The algorithm a private JWK signs with: OKP Ed25519 is EdDSA, RSA is RS256. */
export function algorithmOf(jwk: JWK): SdkJwtAlgorithm | null {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return SDK_JWT_ALGORITHMS.ed25519;
  if (jwk.kty === 'RSA') return SDK_JWT_ALGORITHMS.rsa;
  return null;
}

/** A signing key from a private JWK, its kid the RFC 7638 thumbprint unless given. */
export async function signingKeyFromJwk(privateJwk: JWK, kid?: string): Promise<SdkSigningKey> {
  const alg = algorithmOf(privateJwk);
  if (!alg) throw new TypeError(`unsupported key type ${privateJwk.kty}${privateJwk.crv ? ` ${privateJwk.crv}` : ''}: an SDK key is Ed25519 or RSA`);
  await importJWK(privateJwk, alg); // fails early on a broken key
  return { alg, kid: kid ?? (await calculateJwkThumbprint(privateJwk)), privateJwk };
}

/** The key set entry publishing a signing key: public members only, with kid, alg and use sig. */
export function publicEntryOf(key: SdkSigningKey): JsonWebKeyEntry {
  const entry: Record<string, unknown> = { ...key.privateJwk };
  for (const member of PRIVATE_MEMBERS) delete entry[member];
  return { ...(entry as { kty: string }), kid: key.kid, alg: key.alg, use: 'sig' };
}

/** Exports a CryptoKey or KeyObject private key as a JWK (for keys generated elsewhere). */
export async function privateJwkOf(key: Parameters<typeof exportJWK>[0]): Promise<JWK> {
  return exportJWK(key);
}
