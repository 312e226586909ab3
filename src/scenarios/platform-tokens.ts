import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { keyFromName, type KeyPair } from './identities.js';

export const PLATFORM_TOKEN_ISSUER = 'https://platform.example';
export const AGENT_SCOPE = 'agent';
const ALG = 'EdDSA';

const platformTokenKey: KeyPair = keyFromName('platform-token-signer');

/** An authority an agent runs in Portal mode (5.1): it signs the agent's tokens with its own key, served at {authority}/api/auth/jwks. */
export const PORTAL_AUTHORITY = Object.freeze({
  issuer: 'https://portal.agents.example',
  key: keyFromName('portal-authority-signer'),
  /** Its key set, as {authority}/api/auth/jwks serves it. */
  keys: () => ({ keys: [{ ...PORTAL_AUTHORITY.key.publicJwk, kid: PORTAL_AUTHORITY.key.thumbprint, alg: ALG }] }),
});

export function platformTokenKeys() {
  return { keys: [{ ...platformTokenKey.publicJwk, kid: platformTokenKey.thumbprint, alg: ALG }] };
}

/** A platform bearer token; Ed25519 is deterministic, so a fixed payload gives fixed bytes. */
export async function platformToken(payload: JWTPayload, key: KeyPair = platformTokenKey): Promise<string> {
  const signingKey = await importJWK({ ...key.privateJwk, alg: ALG }, ALG);
  return new SignJWT(payload).setProtectedHeader({ alg: ALG, kid: key.thumbprint, typ: 'JWT' }).sign(signingKey);
}
