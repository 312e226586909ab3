import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { SDK_CLAIMS, SDK_TOKEN_TYPE, type SdkJwtAlgorithm } from '../spec/sdk-auth.js';
import type { AuthSkill } from './config.js';
import type { Clock, Random } from './ports.js';
import { refusal, type SdkAuthRefusal } from './refusal.js';

/** A private key an agent signs its tokens with (5.5: the Ed25519 identity or the RSA key). */
export interface SdkSigningKey {
  readonly alg: SdkJwtAlgorithm;
  /** The kid the token header names and the key set entry carries. */
  readonly kid: string;
  readonly privateJwk: JWK;
}

export interface MintRequest {
  /** The receiving agent's URL (5.5: aud). */
  readonly audience: string;
  readonly scopes: readonly string[];
  readonly key: SdkSigningKey;
  /** Hosting prefix the receiver uses to locate the caller's discovery documents (2.2, optional). */
  readonly agentPath?: string;
  /** Seconds; default the skill's token_ttl (300 s unless configured). */
  readonly lifetime?: number;
}

export type MintResult = { readonly ok: true; readonly token: string; readonly claims: JWTPayload } | SdkAuthRefusal;

/**
 * Mints a self-issued SDK-to-SDK token (2.2, 5.5): iss is this agent's URL, sub and client_id its agent_id,
 * iat = nbf = now, exp = now + lifetime, jti a UUID from the random port, scope space-separated.
 */
export async function mintSdkToken(skill: AuthSkill, request: MintRequest, ports: { readonly clock: Clock; readonly random: Random }): Promise<MintResult> {
  if (skill.agentId === null)
    return refusal('config_invalid', '/agent_id is needed to mint a token (it becomes sub and client_id)', [
      { pointer: '/agent_id', message: 'needed to mint a token' },
    ]);
  const now = ports.clock.now();
  const claims: JWTPayload = {
    [SDK_CLAIMS.iss]: skill.agentUrl,
    [SDK_CLAIMS.sub]: skill.agentId,
    [SDK_CLAIMS.aud]: request.audience,
    [SDK_CLAIMS.iat]: now,
    [SDK_CLAIMS.nbf]: now,
    [SDK_CLAIMS.exp]: now + (request.lifetime ?? skill.tokenTtl),
    [SDK_CLAIMS.jti]: uuidFromBytes(ports.random.bytes(16)),
    [SDK_CLAIMS.scope]: request.scopes.join(' '),
    [SDK_CLAIMS.clientId]: skill.agentId,
    [SDK_CLAIMS.tokenType]: SDK_TOKEN_TYPE,
    ...(request.agentPath !== undefined ? { [SDK_CLAIMS.agentPath]: request.agentPath } : {}),
  };
  return { ok: true, token: await signSdkClaims(claims, request.key), claims };
}

/**
 * Signs any claims set as a compact JWS with header { alg, kid, typ: JWT }; vectors use it for altered tokens.
 * `headerKid` names another key's kid (a token re-signed under someone else's kid), or null for no kid at all.
 */
export async function signSdkClaims(claims: JWTPayload, key: SdkSigningKey, headerKid: string | null = key.kid): Promise<string> {
  const privateKey = await importJWK(key.privateJwk, key.alg);
  const header = headerKid === null ? { alg: key.alg, typ: 'JWT' } : { alg: key.alg, kid: headerKid, typ: 'JWT' };
  return new SignJWT(claims).setProtectedHeader(header).sign(privateKey);
}

/** An RFC 9562 version 4 UUID from 16 bytes. */
export function uuidFromBytes(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
