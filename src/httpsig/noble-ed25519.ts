import { createHash } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { ED25519_KEY_BYTES, ED25519_SIGNATURE_BYTES } from './ed25519.js';
import { decodeBase64url } from './base64url.js';

// @noble/ed25519 v3 ships no synchronous SHA-512; its README has the caller install one.
ed.hashes.sha512 = (message) => Uint8Array.from(createHash('sha512').update(message).digest());

/** A second, independent Ed25519 implementation, for cross-checks only (node:crypto is the hot path). */
export const nobleEd25519 = Object.freeze({
  verify(publicX: string, data: Uint8Array, sig: Uint8Array): boolean {
    const publicKey = decodeBase64url(publicX, ED25519_KEY_BYTES);
    if (publicKey === null || sig.length !== ED25519_SIGNATURE_BYTES) return false;
    try {
      // zip215: false is RFC 8032 verification, the rule node:crypto (OpenSSL) follows.
      return ed.verify(sig, data, publicKey, { zip215: false });
    } catch {
      return false;
    }
  },
  sign(privateJwk: { readonly d: string }, data: Uint8Array): Uint8Array {
    const seed = decodeBase64url(privateJwk.d, ED25519_KEY_BYTES);
    if (seed === null) throw new TypeError('d is not a 32-byte base64url Ed25519 seed');
    return ed.sign(data, seed);
  },
});
