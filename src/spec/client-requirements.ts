import { INBAND_REQUIREMENTS } from './inband.js';
import type { RequirementRecord } from './types.js';

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/**
 * The rules the spec gives the agent's own side: what its signer sends toward the platform (5.2, section 8, 2.4) and
 * how it buys (7.4, section 3). Client mode (`run --client-command`) judges them on the requests an agent sends to a
 * platform double; server runs never name them. Each is a MUST of the spec's text, in its words or close to them.
 */
export const CLIENT_REQUIREMENTS = Object.freeze({
  signed: r(
    'CLIENT-SIGNER-SIGNED',
    '5.2',
    'Every request to the platform carries the headers Signature-Agent, Signature-Input and Signature (5.2); a request may instead present a platform token as Authorization: Bearer (5.3). A request carries no JWT the agent signed itself.',
  ),
  syntax: r(
    'CLIENT-SIGNER-SYNTAX',
    '5.2',
    'Signature-Input and Signature are structured-field dictionaries with one member per label; one or two labels carry tag web-bot-auth.',
  ),
  times: r('CLIENT-SIGNER-TIMES', '5.2', 'The signature parameters created and expires are integers, and expires is after created.'),
  window: r('CLIENT-SIGNER-WINDOW', '5.2', 'expires - created is at most 3600 seconds (section 8: signature validity).'),
  clock: r(
    'CLIENT-SIGNER-CLOCK',
    '5.2',
    "created is not ahead of the platform's clock and expires not behind it by more than the 60 seconds of skew tolerance (section 8).",
  ),
  keyid: r(
    'CLIENT-SIGNER-KEYID',
    '5.2',
    'keyid is the RFC 7638 thumbprint of the signing key, base64url, 43 characters, and names a key of the key set Signature-Agent names.',
  ),
  alg: r('CLIENT-SIGNER-ALG', '5.2', 'alg is ed25519 if sent.'),
  nonceLength: r('CLIENT-SIGNER-NONCE-LENGTH', '5.2', 'The nonce is 1 to 256 characters (section 8).'),
  nonceUnique: r('CLIENT-SIGNER-NONCE-UNIQUE', '5.2', 'A nonce is single use per agent URL: no two signatures of one agent carry the same nonce.'),
  signatureSize: r('CLIENT-SIGNER-SIGNATURE-SIZE', '5.2', 'Each signature is 64 bytes (section 8).'),
  signatureValid: r(
    'CLIENT-SIGNER-SIGNATURE-VALID',
    '5.2',
    'Each signature verifies (Ed25519) under the published key its keyid names, over the request as sent.',
  ),
  coverage: r(
    'CLIENT-SIGNER-COVERAGE',
    '5.2',
    'Covered components: @method, @authority, @path, @query, content-digest when there is a body, and the Signature-Agent member, covered exactly once as signature-agent;key=<label>.',
  ),
  components: r('CLIENT-SIGNER-COMPONENTS', '5.2', 'Only the required components and plain header fields may be covered, and a covered header field is sent.'),
  contentDigest: r('CLIENT-SIGNER-CONTENT-DIGEST', '5.2', 'A request with a body carries Content-Digest (sha-256 or sha-512) over the exact body bytes sent.'),
  authority: r('CLIENT-SIGNER-AUTHORITY', '5.2', "The signature is made for the platform's own host, not a custom domain or alias."),
  agent: r(
    'CLIENT-SIGNER-AGENT',
    '5.2',
    'Signature-Agent names the key set (an https URL ending in /.well-known/jwks.json; alternatively a card URL with type=cimd or an origin with type=directory), and all signatures on one request derive the same agent URL.',
  ),
  bodySize: r('CLIENT-SIGNER-BODY-SIZE', '5.2', 'Signed requests may carry a body of at most 4 MiB (section 8).'),
  keySet: r(
    'CLIENT-SIGNER-KEY-SET',
    '2.4',
    'The key set Signature-Agent names answers 200 directly with a JSON body of at most 64 KiB within 5 seconds over https (the fetch rules of 5.2), and is a JWK Set of Ed25519 public keys (kty OKP, crv Ed25519, use sig), at most 16, none of the RFC 9421 test keys.',
  ),
  card: r(
    'CLIENT-SIGNER-CARD',
    '2.4',
    'The agent card is readable under the fetch rules of 5.2 and names itself: client_id equal to its own URL, url equal to the agent URL, and jwks_uri equal to the key set URL (or an inline jwks instead, never both).',
  ),
  keyContinuity: r(
    'CLIENT-SIGNER-KEY-CONTINUITY',
    '5.2',
    'When the key set carries the signing key but the registration holds none of the keys that signed, the request is also signed with a key the registration already holds (or carries the operator key in X-Service-Owner-Key).',
  ),
  purchaseHeadersCovered: r(
    'CLIENT-SIGNER-PURCHASE-HEADERS-COVERED',
    '7.4',
    'On a signed request the purchase headers it sends are among the covered components: Service-Terms-Accepted, Service-Payment-Methods and Service-Purchase.',
  ),
  echo: r(
    'CLIENT-BUYER-ECHO',
    '7.4',
    'A credential echoes, member for member, a Payment challenge the platform issued: the buyer pays only where the service challenges.',
  ),
  oneCredential: r(
    'CLIENT-BUYER-ONE-CREDENTIAL',
    '3',
    'One credential per challenge: a credential presented again for a challenge is the same credential (section 3: the same credential resumes the original charge).',
  ),
  termsAccepted: r(
    'CLIENT-BUYER-TERMS-ACCEPTED',
    '7.4',
    'Paying accepts the terms: the paid retry carries Service-Terms-Accepted with the version the challenge named, plus Payment-Authorization.',
  ),
  sameCredential: r(
    'CLIENT-BUYER-SAME-CREDENTIAL',
    '7.4',
    'For every answer whose retry.sameCredential is true the buyer re-presents exactly the same credential, in the header retry.credentialHeader names, never a fresh one.',
  ),
  retryAfter: r('CLIENT-BUYER-RETRY-AFTER', '7.4', 'The buyer re-presents after Retry-After, never before.'),
  resendUnpaid: r(
    'CLIENT-BUYER-RESEND-UNPAID',
    '7.4',
    '409 purchase_already_granted, and 503 funding_failed, whose retry.sameCredential is false: the buyer resends the request without the credential.',
  ),
  upstream: r(
    'CLIENT-BUYER-UPSTREAM',
    '7.4',
    '502 upstream_payment_not_relayed: an agent answered with its own payment challenge; pay only where the service challenges. The purchase ends: no credential follows.',
  ),
  termsSigned: r(
    'CLIENT-BUYER-TERMS-SIGNED',
    '7.4',
    '401 terms_acceptance_unauthenticated: the buyer re-presents the credential only on a signed request (or with the platform token).',
  ),
  transfer: r(
    'CLIENT-BUYER-TRANSFER',
    '7.4',
    'A stablecoin paid retry carries an unbroadcast transaction signed by the paying wallet (payload.type transaction) making exactly one transferWithMemo of the quoted amount to the quoted address with the quoted memo, paying its own fee, valid until the challenge expiry.',
  ),
  /** Section 6: payment.submit with payment.scheme balance after the challenge was paid; written once in the in-band catalogue. */
  submit: INBAND_REQUIREMENTS.paymentSubmit,
  /** Section 6's pointer rule: a rule of the SDK buyer, written once in the in-band catalogue (where no server can break it). */
  pointer: INBAND_REQUIREMENTS.buyerPointerRule,
});

export type ClientRequirementKey = keyof typeof CLIENT_REQUIREMENTS;

export const CLIENT_REQUIREMENT_LIST: readonly RequirementRecord[] = Object.freeze(Object.values(CLIENT_REQUIREMENTS));
