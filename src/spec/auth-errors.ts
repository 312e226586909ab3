import { requirementId } from './ids.js';
import type { AuthErrorRecord } from './types.js';

type Row = [code: string, condition: string, acceptSignature?: boolean];

// Section 7.3, in the spec's order. The verifier's order of checks lives in src/verifier/order.ts.
const rows = [
  [
    'too_many_failed_signatures',
    '30 or more signed requests from the client network address failed to verify in the last 60 seconds; refused before reading; counted per address; no Retry-After',
  ],
  ['missing_credential', 'No signature headers and no platform Bearer (an Authorization header of another scheme also lands here)', true],
  ['malformed_token', 'Bearer is not a three-segment JWT'],
  ['platform_token_invalid', 'Bearer did not verify as a platform token, expired or revoked'],
  ['insufficient_scope', 'Platform token carries a restricted scope'],
  ['signature_malformed', 'Headers not structured-field dictionaries, wrong labels, signature not 64 bytes, or disallowed covered components'],
  ['signature_params_invalid', 'Parameter rules of 5.2 broken'],
  ['signature_expired', 'expires past, or created ahead, by more than 60 seconds'],
  ['signature_coverage_insufficient', 'Covered set smaller than Accept-Signature names, or missing content-digest or Signature-Agent member', true],
  ['signature_authority_mismatch', "Not signed for the platform's own host"],
  ['signature_agent_invalid', 'Signature-Agent member missing, not keyed by the covered key, wrong URL form, or agent URLs differ'],
  ['signature_body_too_large', 'Body exceeds 4 MiB'],
  ['request_body_consumed', 'A platform route read the body before verification; nothing evaluated'],
  ['content_digest_mismatch', 'Content-Digest does not match the body bytes, or missing although covered'],
  ['key_set_unreachable', 'Key set could not be read under the fetch rules'],
  ['key_set_invalid', 'Not a valid key set under 2.4'],
  ['signature_key_unknown', 'No key in the set has the thumbprint keyid'],
  ['signature_invalid', 'Signature did not verify'],
  ['key_continuity_required', 'See key continuity in 5.2'],
  ['signature_replayed', 'Nonce already used under this agent URL'],
  ['card_unreachable', 'Card could not be read; no other URL is tried'],
  ['card_not_self_naming', 'client_id or url not as required'],
  ['card_key_set_mismatch', 'jwks_uri differs from the named key set URL, or both jwks_uri and inline jwks present'],
  ['credential_refused', 'Credential cannot authenticate here; covers several conditions without saying which'],
] as const satisfies readonly Row[];

export type AuthErrorCode = (typeof rows)[number][0];

function toRecord([code, condition, acceptSignature]: Row): AuthErrorRecord {
  return Object.freeze({
    id: requirementId('AUTH', code),
    section: '7.3',
    level: 'MUST',
    status: 401,
    code,
    condition,
    acceptSignature: acceptSignature === true,
    // Only too_many_failed_signatures is said to carry "no Retry-After"; 7.3 is silent for the others.
    noRetryAfter: condition.includes('no Retry-After'),
  });
}

/** Every error_code of 7.3, in the spec's order. */
export const AUTH_ERROR_LIST: readonly AuthErrorRecord[] = Object.freeze(rows.map((r) => toRecord(r as Row)));

/** 7.3 records by code: `AUTH_ERRORS.signature_expired.code === 'signature_expired'`. */
export const AUTH_ERRORS = Object.freeze(Object.fromEntries(AUTH_ERROR_LIST.map((r) => [r.code, r]))) as {
  readonly [C in AuthErrorCode]: AuthErrorRecord & { readonly code: C };
};

/** Every 7.3 code as a value, by its own name: `AUTH_CODES.signature_expired`. Code elsewhere names codes through this. */
export const AUTH_CODES = Object.freeze(Object.fromEntries(AUTH_ERROR_LIST.map((r) => [r.code, r.code]))) as {
  readonly [C in AuthErrorCode]: C;
};

export function isAuthErrorCode(value: unknown): value is AuthErrorCode {
  return typeof value === 'string' && Object.hasOwn(AUTH_ERRORS, value);
}

/** The refusal body's fixed `error` member (7.3). */
export const AUTH_ERROR_BODY_ERROR = 'Unauthorized';
