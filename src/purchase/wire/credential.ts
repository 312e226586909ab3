import { CREDENTIAL_MEMBERS, REQUIRED_CHALLENGE_PARAMS, STRIPE_PAYLOAD_MEMBERS } from '../../spec/payments.js';
import { AUTH_SCHEMES } from '../../spec/wire.js';
import { decodeBase64urlJson } from './base64url-json.js';
import { canonicalJson, tryCanonicalJson } from './canonical-json.js';
import { encodeBase64url } from '../../httpsig/base64url.js';
import type { ChallengeEcho } from './challenge.js';
import { isJsonObject, type JsonObject } from './json.js';

/**
 * A Payment credential: `Payment <base64url-nopad(JCS({challenge, payload, source?}))>`, sent in the header
 * the challenge named (Payment-Authorization on the platform). `challenge` is the echo of the challenge's wire
 * members, byte for byte as issued; `challengeFromMembers(credential.challenge)` reads it as a challenge.
 */
export interface PaymentCredential {
  readonly challenge: ChallengeEcho;
  readonly payload: JsonObject;
  /** The payer, e.g. `did:pkh:eip155:<chainId>:<address>` for a stablecoin transfer. */
  readonly source?: string;
}

export type CredentialRejection =
  | 'not-payment-scheme'
  | 'not-base64url'
  | 'not-json'
  | 'not-object'
  | 'challenge-not-echoed'
  | 'challenge-invalid'
  | 'payload-missing'
  | 'payload-not-object'
  | 'source-not-string';

export type CredentialParse =
  | {
      readonly ok: true;
      readonly credential: PaymentCredential;
      /** Whether the token is the JCS encoding of what it decodes to (the platform's SDK and mppx always send JCS). */
      readonly canonical: boolean;
    }
  | { readonly ok: false; readonly reason: CredentialRejection; readonly detail: string };

const refuse = (reason: CredentialRejection, detail: string): CredentialParse => ({ ok: false, reason, detail });

/** `credentials = auth-scheme [ 1*SP token68 ]`, surrounding whitespace trimmed (RFC 9110 field values). */
const CREDENTIALS = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:[ \t]+(\S*))?$/;

/**
 * Parses a credential header value. The echo must be an object whose required members (id, realm, method,
 * intent, request) are strings, and whose other members are strings where present; what they say is left to
 * `challengeFromMembers` and the purchase machine. Never throws.
 */
export function parseCredential(headerValue: string): CredentialParse {
  const match = CREDENTIALS.exec(headerValue.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (!match || match[1]!.toLowerCase() !== AUTH_SCHEMES.payment.toLowerCase())
    return refuse('not-payment-scheme', `the credential does not use the ${AUTH_SCHEMES.payment} scheme`);
  const token = match[2] ?? '';
  const decoded = decodeBase64urlJson(token);
  if (!decoded.ok) return refuse(decoded.failure === 'not-base64url' ? 'not-base64url' : 'not-json', `the credential token: ${decoded.detail}`);
  const value = decoded.value;
  if (!isJsonObject(value)) return refuse('not-object', 'the credential does not decode to a JSON object');

  const echo = value[CREDENTIAL_MEMBERS.challenge];
  if (!isJsonObject(echo)) return refuse('challenge-not-echoed', `the credential has no ${CREDENTIAL_MEMBERS.challenge} object`);
  const missing = REQUIRED_CHALLENGE_PARAMS.find((name) => typeof echo[name] !== 'string');
  if (missing) return refuse('challenge-invalid', `the echoed challenge has no string ${missing}`);
  const notString = Object.entries(echo).find(([, v]) => typeof v !== 'string');
  if (notString) return refuse('challenge-invalid', `the echoed challenge member ${notString[0]} is not a string`);

  const payload = value[CREDENTIAL_MEMBERS.payload];
  if (payload === undefined) return refuse('payload-missing', `the credential has no ${CREDENTIAL_MEMBERS.payload}`);
  if (!isJsonObject(payload)) return refuse('payload-not-object', `the credential ${CREDENTIAL_MEMBERS.payload} is not an object`);
  const source = value[CREDENTIAL_MEMBERS.source];
  if (source !== undefined && typeof source !== 'string') return refuse('source-not-string', `the credential ${CREDENTIAL_MEMBERS.source} is not a string`);

  const credential: PaymentCredential = Object.freeze({
    challenge: echo as unknown as ChallengeEcho,
    payload,
    ...(source === undefined ? {} : { source }),
  });
  const jcs = tryCanonicalJson(value);
  return { ok: true, credential, canonical: jcs !== null && encodeBase64url(new TextEncoder().encode(jcs)) === token };
}

/** Whether two echoes are the same challenge, member for member (JCS comparison, so member order does not matter). */
export function sameEcho(a: ChallengeEcho, b: ChallengeEcho): boolean {
  // An echo holds strings only (parseCredential refuses any other member), which JCS always encodes.
  return canonicalJson(a as unknown as JsonObject) === canonicalJson(b as unknown as JsonObject);
}

/** The shared payment token a card credential's payload carries; undefined when it carries none. */
export function tokenOf(credential: PaymentCredential): string | undefined {
  const token = credential.payload[STRIPE_PAYLOAD_MEMBERS.spt];
  return typeof token === 'string' && token !== '' ? token : undefined;
}
