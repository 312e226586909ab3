import { AUTH_CODES } from '../spec/auth-errors.js';
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { AUTH_SCHEMES } from '../spec/wire.js';
import { MESSAGES } from './messages.js';
import type { RevocationList } from './ports.js';
import type { BearerAcceptance, PlatformTokenConfig } from './types.js';

export type BearerOutcome =
  | BearerAcceptance
  | {
      ok: false;
      code: typeof AUTH_CODES.malformed_token | typeof AUTH_CODES.platform_token_invalid | typeof AUTH_CODES.insufficient_scope;
      description: string;
    };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Splits an Authorization value into scheme and credentials; the scheme compares case-insensitively (RFC 9110). */
export function authorizationScheme(value: string): { scheme: string; credentials: string; isBearer: boolean } {
  const trimmed = value.trim();
  const space = trimmed.search(/\s/);
  const scheme = space < 0 ? trimmed : trimmed.slice(0, space);
  const credentials = space < 0 ? '' : trimmed.slice(space).trim();
  return { scheme, credentials, isBearer: scheme.toLowerCase() === AUTH_SCHEMES.bearer.toLowerCase() };
}

function whyInvalid(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `its ${error.claim} claim is not accepted`;
  if (error instanceof errors.JWKSNoMatchingKey) return 'it was not signed by a platform key';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'its signature does not verify under the platform keys';
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return 'its algorithm is not accepted';
  return 'it does not verify';
}

/** 5.3: a three-segment JWT that verifies as a platform token, not expired or revoked, with the agent-use scope. */
export async function verifyPlatformBearer(
  token: string,
  config: PlatformTokenConfig | undefined,
  now: number,
  revocations: RevocationList,
): Promise<BearerOutcome> {
  if (!JWT_SHAPE.test(token)) return { ok: false, code: AUTH_CODES.malformed_token, description: MESSAGES.malformedToken };
  try {
    decodeProtectedHeader(token);
  } catch {
    return { ok: false, code: AUTH_CODES.malformed_token, description: MESSAGES.malformedToken };
  }
  if (!config)
    return { ok: false, code: AUTH_CODES.platform_token_invalid, description: MESSAGES.tokenInvalid('this platform has no key set for bearer tokens') };
  let payload: Record<string, unknown>;
  try {
    const verified = await jwtVerify(token, createLocalJWKSet(config.keys), {
      currentDate: new Date(now * 1000),
      ...(config.issuer ? { issuer: config.issuer } : {}),
      ...(config.audience ? { audience: config.audience } : {}),
    });
    payload = verified.payload as Record<string, unknown>;
  } catch (error) {
    return { ok: false, code: AUTH_CODES.platform_token_invalid, description: MESSAGES.tokenInvalid(whyInvalid(error)) };
  }
  if (typeof payload.jti === 'string' && (await revocations.isRevoked(payload.jti))) {
    return { ok: false, code: AUTH_CODES.platform_token_invalid, description: MESSAGES.tokenInvalid('it has been revoked') };
  }
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(/\s+/).filter(Boolean) : [];
  if (!scopes.includes(config.agentScope)) {
    return { ok: false, code: AUTH_CODES.insufficient_scope, description: MESSAGES.tokenScope(config.agentScope) };
  }
  return { ok: true, kind: 'platform-token', subject: typeof payload.sub === 'string' ? payload.sub : null, scopes };
}
