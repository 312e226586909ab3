import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import { generateEd25519Jwk, jwkThumbprint, type Ed25519PrivateJwk } from '../httpsig/index.js';
import { ED25519_JWK } from '../spec/wire.js';
import type { Clock } from '../verifier/ports.js';
import type { PlatformTokenConfig } from '../verifier/types.js';

/** JOSE algorithm of platform tokens (RFC 8037 EdDSA over Ed25519). */
const PLATFORM_TOKEN_ALG = 'EdDSA';
/**
 * The scope a platform token needs to act as an agent (5.3 "agent-use scope"). The spec does not name its
 * value; this is the value the scenarios and the `verify` cases use by default.
 */
const DEFAULT_AGENT_SCOPE = 'agent';
/** Lifetime of the tokens the reference platform mints, in seconds. */
const PLATFORM_TOKEN_LIFETIME_S = 3600;

export interface MintedToken {
  readonly token: string;
  readonly subject: string | null;
  readonly scope: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
  readonly jti: string;
}

export interface PlatformTokenIssuer {
  /** The platform origin, the tokens' `iss`. */
  readonly issuer: string;
  readonly agentScope: string;
  readonly lifetimeSeconds: number;
  /** The public key set the verifier checks tokens against (the private key never leaves the issuer). */
  readonly publicKeys: JSONWebKeySet;
  /** The verifier's platformToken configuration for these tokens. */
  readonly verifierConfig: PlatformTokenConfig;
  mint(subject: string | null): Promise<MintedToken>;
}

export interface PlatformTokenIssuerOptions {
  readonly issuer: string;
  readonly clock: Clock;
  /** Ed25519 private JWK; a fresh key when absent. */
  readonly privateJwk?: Ed25519PrivateJwk;
  readonly agentScope?: string;
  readonly lifetimeSeconds?: number;
  /** Token ids; 128 random bits, base64url, by default. */
  readonly newJti?: () => string;
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

function publicXOf(key: KeyObject): string | undefined {
  return key.export({ format: 'jwk' }).x;
}

/** Mints the platform's bearer tokens (5.3): EdDSA JWTs (compact JWS, RFC 7515) with iss, sub, scope, iat, exp and jti. */
export function createPlatformTokenIssuer(options: PlatformTokenIssuerOptions): PlatformTokenIssuer {
  const privateJwk = options.privateJwk ?? generateEd25519Jwk().privateJwk;
  if (privateJwk.kty !== ED25519_JWK.kty || privateJwk.crv !== ED25519_JWK.crv || typeof privateJwk.d !== 'string') {
    throw new TypeError('platformTokenKey must be an Ed25519 private JWK (kty OKP, crv Ed25519, with d)');
  }
  const kid = jwkThumbprint(privateJwk);
  let signingKey: KeyObject;
  try {
    signingKey = createPrivateKey({ key: { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, d: privateJwk.d }, format: 'jwk' });
  } catch {
    throw new TypeError('platformTokenKey is not a usable Ed25519 private JWK');
  }
  // node:crypto derives the public key from d; a JWK whose x is another key's would sign under a kid it does not own.
  if (publicXOf(signingKey) !== privateJwk.x) throw new TypeError('platformTokenKey: x is not the public key of d');
  const agentScope = options.agentScope ?? DEFAULT_AGENT_SCOPE;
  const lifetimeSeconds = options.lifetimeSeconds ?? PLATFORM_TOKEN_LIFETIME_S;
  // randomUUID draws from a cached pool of entropy: no system call per token.
  const newJti = options.newJti ?? (() => randomUUID());
  const header = base64url(JSON.stringify({ alg: PLATFORM_TOKEN_ALG, kid, typ: 'JWT' }));
  const publicKeys: JSONWebKeySet = {
    keys: [{ kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, use: ED25519_JWK.use, alg: PLATFORM_TOKEN_ALG, kid }],
  };
  return {
    issuer: options.issuer,
    agentScope,
    lifetimeSeconds,
    publicKeys,
    verifierConfig: { keys: publicKeys, issuer: options.issuer, agentScope },
    async mint(subject) {
      const issuedAt = options.clock.now();
      const expiresAt = issuedAt + lifetimeSeconds;
      const jti = newJti();
      const claims = { scope: agentScope, iss: options.issuer, iat: issuedAt, exp: expiresAt, jti, ...(subject !== null ? { sub: subject } : {}) };
      const signingInput = `${header}.${base64url(JSON.stringify(claims))}`;
      // node:crypto signs in this thread: WebCrypto's sign (jose's SignJWT) is a job on the thread pool, whose
      // round trip cost serve more than the signature itself.
      const signature = sign(null, Buffer.from(signingInput), signingKey).toString('base64url');
      return { token: `${signingInput}.${signature}`, subject, scope: agentScope, issuedAt, expiresAt, jti };
    },
  };
}
