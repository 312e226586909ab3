import { generateEd25519Jwk } from '../httpsig/index.js';
import type { Ed25519PrivateJwk } from '../httpsig/index.js';
import { ED25519_JWK, RFC9421_TEST_KEYS } from '../spec/wire.js';
import { InputError } from './errors.js';
import type { CliIo } from './io.js';
import { readJsonFile } from './read-input.js';

const BASE64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;

/**
 * Reads an Ed25519 private JWK (as keygen writes it) and checks that x is the public key of d. `option` and `user`
 * name, in messages, the option that gave the file and the command that needs the private key.
 */
export async function readPrivateJwk(io: CliIo, path: string, option = '--key', user = 'sign'): Promise<Ed25519PrivateJwk> {
  const value = await readJsonFile(io, path, `${option} file`);
  const problem = (text: string) => new InputError(`${option} file "${path}" ${text}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw problem('must hold a JSON object: an Ed25519 private JWK');
  const jwk = value as Record<string, unknown>;
  if ('keys' in jwk) throw problem(`holds a key set; ${user} needs a private JWK such as the private-key.jwk.json keygen writes`);
  if (jwk.kty !== ED25519_JWK.kty || jwk.crv !== ED25519_JWK.crv) {
    throw problem(`is not an Ed25519 key (kty ${JSON.stringify(jwk.kty)}, crv ${JSON.stringify(jwk.crv)}; expected OKP and Ed25519)`);
  }
  if (jwk.d === undefined) throw problem(`holds a public key; ${user} needs the private key (the member d)`);
  if (typeof jwk.d !== 'string' || !BASE64URL_32_BYTES.test(jwk.d)) throw problem('has a d that is not 32 bytes of base64url');
  const derived = generateEd25519Jwk(Buffer.from(jwk.d, 'base64url')).privateJwk;
  if (jwk.x !== undefined && jwk.x !== derived.x) throw problem('has an x that is not the public key of its d');
  return derived;
}

/** True for the RFC 9421 Appendix B test key, which platforms refuse in a key set (2.4). */
export function isRfc9421TestKey(jwk: { readonly x: string }): boolean {
  return RFC9421_TEST_KEYS.ed25519X.includes(jwk.x);
}
