import { createHash } from 'node:crypto';

/** RFC 7638 §3.2 required members per key type, already in lexicographic order. */
const REQUIRED_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  OKP: ['crv', 'kty', 'x'],
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
};

/**
 * RFC 7638 JWK SHA-256 thumbprint, base64url without padding (43 characters). Generic so that both JWK
 * interfaces without an index signature and literals with extra members are accepted; throws on other
 * key types or missing members. jose's calculateJwkThumbprint gives the same answer (tests/httpsig/jwk-thumbprint.test.ts
 * holds them equal on every key of the vectors and on generated members) but only through a promise, and this is
 * called synchronously by signRequest (a public API) and by the verifier's key-set reader on every entry.
 */
export function jwkThumbprint<K extends { readonly kty: string }>(key: K): string {
  const jwk = key as { readonly kty: string; readonly [member: string]: unknown };
  const members = Object.hasOwn(REQUIRED_MEMBERS, jwk.kty) ? REQUIRED_MEMBERS[jwk.kty] : undefined;
  if (members === undefined) throw new TypeError(`unsupported kty ${JSON.stringify(jwk.kty)}`);
  const canonical: Record<string, string> = {};
  for (const name of members) {
    const value = jwk[name];
    if (typeof value !== 'string') throw new TypeError(`${jwk.kty} key lacks the string member ${name}`);
    canonical[name] = value;
  }
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url');
}
