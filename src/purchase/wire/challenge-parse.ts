import {
  CHALLENGE_PARAM_ORDER,
  CHALLENGE_PARAMS,
  DEFAULT_CREDENTIAL_HEADER,
  PAYMENT_CREDENTIAL_HEADER,
  PAYMENT_INTENT_PATTERN,
  PAYMENT_METHOD_ID_PATTERN,
  REQUIRED_CHALLENGE_PARAMS,
  type ChallengeParamName,
} from '../../spec/payments.js';
import { AUTH_SCHEMES } from '../../spec/wire.js';
import { parseAuthenticate, type AuthChallenge } from './auth-params-parse.js';
import { decodeBase64urlJson } from './base64url-json.js';
import { tryCanonicalJson } from './canonical-json.js';
import { challengeEcho, type ChallengeEcho, type PaymentChallenge } from './challenge.js';
import { isJsonObject, type JsonObject } from './json.js';
import { rfc3339Seconds } from './rfc3339.js';

/** Why a Payment challenge (a header value, or the echo inside a credential) was refused. */
export type ChallengeRejection =
  | 'syntax'
  | 'not-payment'
  | 'several-challenges'
  | 'token68'
  | 'duplicate-param'
  | 'missing-param'
  | 'param-not-string'
  | 'empty-param'
  | 'method-invalid'
  | 'intent-invalid'
  | 'request-not-base64url'
  | 'request-not-json'
  | 'request-not-object'
  | 'expires-invalid'
  | 'opaque-invalid'
  | 'header-unsupported';

export type ChallengeParse =
  | {
      readonly ok: true;
      readonly challenge: PaymentChallenge;
      /** The members exactly as they arrived (unknown ones dropped): what a credential must echo. */
      readonly echo: ChallengeEcho;
      /** Whether the arrived members are the canonical encoding of the value (request and opaque JCS, header spelt Payment-Authorization). */
      readonly canonical: boolean;
    }
  | { readonly ok: false; readonly reason: ChallengeRejection; readonly detail: string };

const refuse = (reason: ChallengeRejection, detail: string): ChallengeParse => ({ ok: false, reason, detail });

function isFlatStringMap(value: unknown): value is Readonly<Record<string, string>> {
  return isJsonObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Reads the members of a challenge, whether they came as auth-params or as the echo inside a credential:
 * id, realm, method, intent and request required and non-empty; method a lower-case method id; request
 * base64url JCS of a JSON object; expires an RFC 3339 instant (the platform's challenges always expire);
 * opaque base64url JSON of a flat string map; header Payment-Authorization (an explicit Authorization is the
 * default and is read as absent; any other value makes the challenge unrecognised, draft-httpauth-payment-02).
 * Unknown members are ignored.
 */
export function challengeFromMembers(members: Readonly<Record<string, unknown>>): ChallengeParse {
  const fields: Partial<Record<ChallengeParamName, string>> = {};
  for (const name of CHALLENGE_PARAM_ORDER) {
    const value = Object.hasOwn(members, name) ? members[name] : undefined;
    if (value === undefined) continue;
    if (typeof value !== 'string') return refuse('param-not-string', `${name} is not a string`);
    fields[name] = value;
  }
  for (const name of REQUIRED_CHALLENGE_PARAMS) {
    if (fields[name] === undefined) return refuse('missing-param', `the ${name} parameter is missing`);
    if (fields[name] === '') return refuse('empty-param', `the ${name} parameter is empty`);
  }
  const { id, realm, method, intent, request, expires, digest, description, opaque, header } = fields as Required<typeof fields>;
  if (!PAYMENT_METHOD_ID_PATTERN.test(method)) return refuse('method-invalid', `method ${JSON.stringify(method)} is not a lower-case payment method id`);
  if (!PAYMENT_INTENT_PATTERN.test(intent)) return refuse('intent-invalid', `intent ${JSON.stringify(intent)} is not an intent token`);

  const decoded = decodeBase64urlJson(request);
  if (!decoded.ok) return refuse(decoded.failure === 'not-base64url' ? 'request-not-base64url' : 'request-not-json', `request: ${decoded.detail}`);
  if (!isJsonObject(decoded.value)) return refuse('request-not-object', 'request does not decode to a JSON object');
  if (tryCanonicalJson(decoded.value) === null)
    return refuse('request-not-json', 'request holds a value JCS cannot encode (a lone surrogate or a number out of range)');

  if (expires === undefined) return refuse('missing-param', `the ${CHALLENGE_PARAMS.expires} parameter is missing (the platform's challenges expire, 7.4)`);
  if (!Number.isFinite(rfc3339Seconds(expires))) return refuse('expires-invalid', `expires ${JSON.stringify(expires)} is not an RFC 3339 date-time`);

  let opaqueValue: Readonly<Record<string, string>> | undefined;
  if (opaque !== undefined) {
    const read = decodeBase64urlJson(opaque);
    if (!read.ok) return refuse('opaque-invalid', `opaque: ${read.detail}`);
    if (!isFlatStringMap(read.value)) return refuse('opaque-invalid', 'opaque does not decode to a flat map of strings');
    if (tryCanonicalJson(read.value) === null) return refuse('opaque-invalid', 'opaque holds a string JCS cannot encode (a lone surrogate)');
    opaqueValue = read.value;
  }

  let credentialHeader: typeof PAYMENT_CREDENTIAL_HEADER | undefined;
  if (header !== undefined) {
    const lower = header.toLowerCase();
    if (lower === PAYMENT_CREDENTIAL_HEADER.toLowerCase()) credentialHeader = PAYMENT_CREDENTIAL_HEADER;
    else if (lower !== DEFAULT_CREDENTIAL_HEADER.toLowerCase())
      return refuse('header-unsupported', `header ${JSON.stringify(header)} is neither ${PAYMENT_CREDENTIAL_HEADER} nor ${DEFAULT_CREDENTIAL_HEADER}`);
  }

  const challenge: PaymentChallenge = Object.freeze({
    id,
    realm,
    method,
    intent,
    request: decoded.value as JsonObject,
    expires,
    ...(credentialHeader === undefined ? {} : { header: credentialHeader }),
    ...(opaqueValue === undefined ? {} : { opaque: opaqueValue }),
    ...(digest === undefined ? {} : { digest }),
    ...(description === undefined ? {} : { description }),
  });
  const echo = Object.freeze({ ...fields }) as ChallengeEcho;
  const arrived = tryCanonicalJson(echo);
  return { ok: true, challenge, echo, canonical: arrived !== null && arrived === tryCanonicalJson(challengeEcho(challenge)) };
}

/** One auth-param challenge of the Payment scheme: no token68, no parameter twice (RFC 9110 11.2), then its members. */
export function challengeFromAuthChallenge(challenge: AuthChallenge): ChallengeParse {
  if (challenge.token68 !== undefined) return refuse('token68', 'a Payment challenge carries auth-params, not a token68');
  const members: Record<string, string> = {};
  for (const [name, value] of challenge.params) {
    if (Object.hasOwn(members, name)) return refuse('duplicate-param', `the ${name} parameter appears twice`);
    members[name] = value;
  }
  return challengeFromMembers(members);
}

const isPayment = (challenge: AuthChallenge): boolean => challenge.scheme.toLowerCase() === AUTH_SCHEMES.payment.toLowerCase();

export interface PaymentChallengeScan {
  /** Every Payment challenge found, in order, each read or refused. */
  readonly challenges: readonly ChallengeParse[];
  /** Field values that are not a challenge list at all; their Payment challenges, if any, cannot be counted. */
  readonly malformed: readonly { readonly index: number; readonly detail: string; readonly at: number }[];
}

/** Finds every Payment challenge among `WWW-Authenticate` field values (each possibly comma-joined). Never throws. */
export function paymentChallenges(headerValues: string | readonly string[]): PaymentChallengeScan {
  const values = typeof headerValues === 'string' ? [headerValues] : headerValues;
  const challenges: ChallengeParse[] = [];
  const malformed: { index: number; detail: string; at: number }[] = [];
  values.forEach((value, index) => {
    const parsed = parseAuthenticate(value);
    if (!parsed.ok) malformed.push({ index, detail: parsed.detail, at: parsed.at });
    else challenges.push(...parsed.challenges.filter(isPayment).map(challengeFromAuthChallenge));
  });
  return { challenges, malformed };
}

/**
 * 7.4: a 402 carries exactly one Payment challenge. Reads the one challenge among the field values, refusing
 * a malformed field value (`syntax`), none (`not-payment`) or several (`several-challenges`).
 */
export function singlePaymentChallenge(headerValues: string | readonly string[]): ChallengeParse {
  const scan = paymentChallenges(headerValues);
  const [first] = scan.malformed;
  if (first) return refuse('syntax', `WWW-Authenticate value ${first.index} is malformed at ${first.at}: ${first.detail}`);
  if (scan.challenges.length === 0) return refuse('not-payment', `no ${AUTH_SCHEMES.payment} challenge`);
  if (scan.challenges.length > 1) return refuse('several-challenges', `${scan.challenges.length} ${AUTH_SCHEMES.payment} challenges where exactly one is due`);
  return scan.challenges[0]!;
}

/** Parses a `WWW-Authenticate` value holding one Payment challenge (other schemes beside it are ignored). */
export function parsePaymentChallenge(headerValue: string): ChallengeParse {
  return singlePaymentChallenge([headerValue]);
}
