import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type CryptoKey, type JWTPayload, type JWTVerifyResult } from 'jose';
import { SDK_CLAIMS, SDK_REQUIRED_CLAIMS, SDK_TOKEN_TYPE } from '../spec/sdk-auth.js';
import { hasScope, type AuthContext } from './auth-context.js';
import type { AuthSkill } from './config.js';
import { admitIssuer } from './issuer-policy.js';
import { readKeySet } from './key-sets.js';
import type { JsonWebKeySet, SdkAuthPorts } from './ports.js';
import { refusal, type SdkAuthRefusal } from './refusal.js';
import { grantedScopes, namespacesOf } from './scopes.js';

export interface VerifiedToken {
  readonly ok: true;
  readonly context: AuthContext;
  /** 2.3: the context's scope check. */
  hasScope(scope: string): boolean;
}

export type TokenVerdict = VerifiedToken | SdkAuthRefusal;

/**
 * Verifies an inbound SDK-to-SDK token (5.1, 5.5) into the AuthContext of 2.3. Checks, in order (the first that
 * fails refuses):
 * 1. form: a three-segment compact JWS with JSON header and claims, alg EdDSA or RS256 (those of them the skill
 *    verifies), a string iss;
 * 2. the issuer: deny, trusted issuers, allow (./issuer-policy.ts);
 * 3. the issuer's key set, cached for jwks_cache_ttl; a key the cached set lacks re-reads it once;
 * 4. the signature (jose);
 * 5. the claims, as jose orders them: every claim 2.2 requires present, aud equal to this agent's URL, nbf not
 *    after now, exp after now (no clock tolerance unless the skill's options grant one: the spec gives none);
 * 6. claim types: sub, jti, scope, client_id strings, token_type Bearer, agent_path a string when present.
 * Scopes allowed_scopes does not accept are dropped, not refused (docs/platform-sdk.md e). user_id stays null: 2.2 has
 * no user claim; agent_id and source_agent are sub.
 */
export async function verifySdkToken(token: string, skill: AuthSkill, ports: SdkAuthPorts): Promise<TokenVerdict> {
  const form = readForm(token, skill);
  if (!form.ok) return form;
  const admission = admitIssuer(form.iss, skill);
  if (!admission.ok) return admission;

  let keySet = await readKeySet(admission.jwksUri, skill, ports);
  if (!keySet.ok) return keySet;
  let verified = await verifyWith(token, keySet.jwks, skill, ports.clock.now());
  if (!verified.ok && verified.reason === 'token_key_unknown' && keySet.fromCache) {
    keySet = await readKeySet(admission.jwksUri, skill, ports, true);
    if (!keySet.ok) return keySet;
    verified = await verifyWith(token, keySet.jwks, skill, ports.clock.now());
  }
  if (!verified.ok) return verified;

  const claims = verified.payload;
  const typed = checkClaimTypes(claims);
  if (typed) return typed;
  const scopes = grantedScopes(claims.scope as string, skill.allowedScopes);
  const context: AuthContext = Object.freeze({
    user_id: null,
    agent_id: claims.sub as string,
    source_agent: claims.sub as string,
    authenticated: true,
    scopes: Object.freeze(scopes),
    namespaces: Object.freeze(namespacesOf(scopes)),
    issuer: form.iss,
    issuer_type: admission.issuerType,
    raw_claims: Object.freeze({ ...claims }),
  });
  return Object.freeze({ ok: true, context, hasScope: (scope: string) => hasScope(context, scope) });
}

type Form = { readonly ok: true; readonly iss: string } | SdkAuthRefusal;

function readForm(token: string, skill: AuthSkill): Form {
  if (typeof token !== 'string' || token.split('.').length !== 3) return refusal('token_malformed', 'expected three dot-separated segments');
  let alg: unknown;
  let claims: JWTPayload;
  try {
    alg = decodeProtectedHeader(token).alg;
    claims = decodeJwt(token);
  } catch (error) {
    return refusal('token_malformed', error instanceof Error ? error.message : String(error));
  }
  if (typeof alg !== 'string' || !(skill.algorithms as readonly string[]).includes(alg)) return refusal('algorithm_not_allowed', `alg ${JSON.stringify(alg)}`);
  if (typeof claims.iss !== 'string' || claims.iss === '') return refusal('claims_invalid', 'iss must be a non-empty string');
  return { ok: true, iss: claims.iss };
}

type Verified = { readonly ok: true; readonly payload: JWTPayload } | SdkAuthRefusal;

async function verifyWith(token: string, jwks: JsonWebKeySet, skill: AuthSkill, now: number): Promise<Verified> {
  const options = {
    algorithms: [...skill.algorithms],
    audience: skill.agentUrl,
    requiredClaims: [...SDK_REQUIRED_CLAIMS],
    currentDate: new Date(now * 1000),
    clockTolerance: skill.clockTolerance,
  };
  let keys: ReturnType<typeof createLocalJWKSet>;
  try {
    keys = createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]);
  } catch (error) {
    return refusal('issuer_key_set_invalid', error instanceof Error ? error.message : String(error));
  }
  try {
    const result: JWTVerifyResult = await jwtVerify(token, keys, options);
    return { ok: true, payload: result.payload };
  } catch (error) {
    if (codeOf(error) !== 'ERR_JWKS_MULTIPLE_MATCHING_KEYS') return fromJose(error);
    // Several keys fit the header (no kid, or a repeated kid): the token verifies if one of them signed it.
    let last: unknown = error;
    for await (const key of error as AsyncIterable<CryptoKey>) {
      try {
        return { ok: true, payload: (await jwtVerify(token, key, options)).payload };
      } catch (inner) {
        last = inner;
        if (codeOf(inner) !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') break;
      }
    }
    return fromJose(codeOf(last) === 'ERR_JWKS_MULTIPLE_MATCHING_KEYS' ? new SignatureFailure() : last);
  }
}

class SignatureFailure extends Error {
  readonly code = 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED';
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
}

function fromJose(error: unknown): SdkAuthRefusal {
  const message = error instanceof Error ? error.message : String(error);
  switch (codeOf(error)) {
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return refusal('token_key_unknown', message);
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return refusal('token_signature_invalid', message);
    case 'ERR_JWT_EXPIRED':
      return refusal('token_expired', message);
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return refusal('algorithm_not_allowed', message);
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const { claim, reason } = error as { claim?: string; reason?: string };
      if (claim === SDK_CLAIMS.nbf && reason === 'check_failed') return refusal('token_not_yet_valid', message);
      if (claim === SDK_CLAIMS.aud && reason === 'check_failed') return refusal('audience_mismatch', message);
      return refusal('claims_invalid', message);
    }
    case 'ERR_JWK_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
    case 'ERR_JWKS_INVALID':
      return refusal('issuer_key_set_invalid', message);
    default:
      return refusal('token_malformed', message);
  }
}

function checkClaimTypes(claims: JWTPayload): SdkAuthRefusal | null {
  // aud is one URL in 2.2 (jose also admits a list holding it).
  for (const claim of [SDK_CLAIMS.sub, SDK_CLAIMS.aud, SDK_CLAIMS.jti, SDK_CLAIMS.scope, SDK_CLAIMS.clientId]) {
    if (typeof claims[claim] !== 'string') return refusal('claims_invalid', `${claim} must be a string`);
  }
  if (claims[SDK_CLAIMS.tokenType] !== SDK_TOKEN_TYPE) return refusal('claims_invalid', `${SDK_CLAIMS.tokenType} must be ${SDK_TOKEN_TYPE}`);
  const agentPath = claims[SDK_CLAIMS.agentPath];
  if (agentPath !== undefined && typeof agentPath !== 'string') return refusal('claims_invalid', `${SDK_CLAIMS.agentPath} must be a string when present`);
  return null;
}
