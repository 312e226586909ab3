import { createHash, createHmac } from 'node:crypto';
import { PAYMENT_CHALLENGE_LIFETIME_S } from '../../spec/limits.js';
import {
  CHALLENGE_PARAM_ORDER,
  DEFAULT_CREDENTIAL_HEADER,
  PAYMENT_CREDENTIAL_HEADER,
  PAYMENT_INTENT_PATTERN,
  PAYMENT_INTENTS,
  PAYMENT_METHOD_ID_PATTERN,
} from '../../spec/payments.js';
import { AUTH_SCHEMES } from '../../spec/wire.js';
import { quotedString } from './auth-params.js';
import { canonicalJson, jcsBase64url } from './canonical-json.js';
import { rfc3339Seconds } from './rfc3339.js';
import type { JsonObject } from './json.js';

/**
 * A Payment challenge (draft-httpauth-payment; 7.4) as a value: `request` and `opaque` decoded. On the wire
 * both travel as base64url without padding of their RFC 8785 JCS, so a client that decodes and re-encodes
 * them (as mppx does in every credential) echoes the very same bytes.
 */
export interface PaymentChallenge {
  readonly id: string;
  readonly realm: string;
  readonly method: string;
  readonly intent: string;
  readonly request: JsonObject;
  /** RFC 3339 instant in UTC with milliseconds, as the platform writes it: `2026-09-18T12:05:00.000Z`. */
  readonly expires: string;
  /** The header the credential must come back in; absent on a challenge that names none (then Authorization). */
  readonly header?: typeof PAYMENT_CREDENTIAL_HEADER;
  /** A flat string-to-string map, echoed unchanged and bound to the id. */
  readonly opaque?: Readonly<Record<string, string>>;
  /** RFC 9530 digest of the request body the challenge was issued for. */
  readonly digest?: string;
  /** Display text only; not bound to the id. */
  readonly description?: string;
}

/** The challenge as it travels: every auth-param as its string, which is what a credential echoes. */
export type ChallengeEcho = {
  readonly id: string;
  readonly realm: string;
  readonly method: string;
  readonly intent: string;
  readonly request: string;
  readonly expires?: string;
  readonly digest?: string;
  readonly description?: string;
  readonly opaque?: string;
  readonly header?: string;
};

export interface ChallengeInput {
  readonly realm: string;
  readonly method: string;
  /** Defaults to charge, the only paid intent. */
  readonly intent?: string;
  readonly request: JsonObject;
  /** Clock seconds at issue; expires is this plus the challenge lifetime (8: 300 s). */
  readonly createdAt: number;
  /** Seconds the challenge is honoured; the challenge lifetime of section 8 (300 s) when absent. */
  readonly lifetimeSeconds?: number;
  readonly opaque?: Readonly<Record<string, string>>;
  readonly digest?: string;
  readonly description?: string;
}

export interface ChallengeBinding {
  /** With a secret the id is an HMAC-SHA256 (unforgeable, stateless binding); without one a SHA-256 (deterministic, for tests and vectors). */
  readonly secret?: Uint8Array;
}

/** An RFC 3339 UTC instant with milliseconds for clock seconds. */
export function instantOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** The challenge's expiry in clock seconds. */
export function expiresAtSeconds(challenge: Pick<PaymentChallenge, 'expires'>): number {
  return rfc3339Seconds(challenge.expires);
}

/** The header a client must send the credential in: the one the challenge names, else Authorization. */
export function credentialHeaderOf(challenge: { readonly header?: string }): string {
  return challenge.header ?? DEFAULT_CREDENTIAL_HEADER;
}

/**
 * The id binds every other member but `description` (which the scheme leaves unbound): base64url of the
 * SHA-256, or with a secret the HMAC-SHA256, of the JCS of the wire members. Any change to realm, method,
 * intent, request, expires, digest, opaque or header changes the id.
 */
export function challengeId(members: Omit<ChallengeEcho, 'id'>, binding: ChallengeBinding = {}): string {
  const { description: _unbound, ...bound } = members;
  const text = canonicalJson(bound as JsonObject);
  const digest = binding.secret ? createHmac('sha256', binding.secret).update(text) : createHash('sha256').update(text);
  return digest.digest('base64url');
}

/** The wire members of a challenge, `request` and `opaque` as base64url JCS; optional members only when present. */
export function challengeEcho(challenge: PaymentChallenge): ChallengeEcho {
  return wireMembers(challenge, challenge.id);
}

function wireMembers(challenge: Omit<PaymentChallenge, 'id'>, id: string): ChallengeEcho {
  return Object.freeze({
    id,
    realm: challenge.realm,
    method: challenge.method,
    intent: challenge.intent,
    request: jcsBase64url(challenge.request),
    expires: challenge.expires,
    ...(challenge.digest === undefined ? {} : { digest: challenge.digest }),
    ...(challenge.description === undefined ? {} : { description: challenge.description }),
    ...(challenge.opaque === undefined ? {} : { opaque: jcsBase64url(challenge.opaque) }),
    ...(challenge.header === undefined ? {} : { header: challenge.header }),
  });
}

/** Builds a fresh challenge naming Payment-Authorization, expiring the challenge lifetime after `createdAt`. */
export function createChallenge(input: ChallengeInput, binding: ChallengeBinding = {}): PaymentChallenge {
  const intent = input.intent ?? PAYMENT_INTENTS.charge;
  if (!PAYMENT_METHOD_ID_PATTERN.test(input.method)) throw new TypeError(`method ${JSON.stringify(input.method)} is not a lower-case payment method id`);
  if (!PAYMENT_INTENT_PATTERN.test(intent)) throw new TypeError(`intent ${JSON.stringify(intent)} is not an intent token`);
  if (input.realm === '') throw new TypeError('realm is empty');
  for (const text of [input.realm, input.digest, input.description]) if (text !== undefined) quotedString(text);
  const unbound: Omit<PaymentChallenge, 'id'> = {
    realm: input.realm,
    method: input.method,
    intent,
    request: input.request,
    expires: instantOf(input.createdAt + (input.lifetimeSeconds ?? PAYMENT_CHALLENGE_LIFETIME_S)),
    header: PAYMENT_CREDENTIAL_HEADER,
    ...(input.opaque === undefined ? {} : { opaque: input.opaque }),
    ...(input.digest === undefined ? {} : { digest: input.digest }),
    ...(input.description === undefined ? {} : { description: input.description }),
  };
  const { id: _none, ...members } = wireMembers(unbound, '');
  return Object.freeze({ id: challengeId(members, binding), ...unbound });
}

/**
 * The `WWW-Authenticate` value: `Payment id="…", realm="…", method="…", intent="…", expires="…", request="…"`
 * then digest, description and opaque when present, then `header="Payment-Authorization"`; every value quoted.
 */
export function serializeChallenge(challenge: PaymentChallenge): string {
  const echo: Readonly<Record<string, string | undefined>> = challengeEcho(challenge);
  const params = CHALLENGE_PARAM_ORDER.flatMap((name) => (echo[name] === undefined ? [] : [`${name}=${quotedString(echo[name])}`]));
  return `${AUTH_SCHEMES.payment} ${params.join(', ')}`;
}
