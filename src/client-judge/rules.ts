import { CLIENT_REQUIREMENTS, type ClientRequirementKey } from '../spec/client-requirements.js';
import type { RequirementRecord } from '../spec/types.js';

/** A rule client mode judges: one check of the report, named by a stable id, judging one requirement of the catalogue. */
export interface ClientRule {
  readonly key: ClientRuleKey;
  /** The check id reports, JUnit and expected-failure lists key on (`client.signer-nonce-unique`). */
  readonly id: string;
  /** A sentence for people. */
  readonly title: string;
  /** The signer's rules (5.2, 2.4, 8) or the buyer's (7.4, section 3). */
  readonly area: 'signer' | 'buyer';
  readonly requirement: RequirementRecord;
}

/** One rule per client requirement; the keys are the catalogue's. */
export type ClientRuleKey = ClientRequirementKey;

const rule = (key: ClientRuleKey, id: string, area: ClientRule['area'], title: string): ClientRule =>
  Object.freeze({ key, id, area, title, requirement: CLIENT_REQUIREMENTS[key] });

/**
 * The rules in the order a report lists them: the signer's in the order a platform's verifier meets them (7.3, the
 * reference's order), then the buyer's in the order a purchase meets them.
 */
export const CLIENT_RULES: Readonly<Record<ClientRuleKey, ClientRule>> = Object.freeze({
  signed: rule('signed', 'client.signer-signed', 'signer', 'Every request to the platform is signed (Signature-Agent, Signature-Input, Signature)'),
  syntax: rule('syntax', 'client.signer-syntax', 'signer', 'Signature-Input and Signature are dictionaries naming the same labels, tagged web-bot-auth'),
  times: rule('times', 'client.signer-times', 'signer', 'created and expires are integers and expires is after created'),
  keyid: rule('keyid', 'client.signer-keyid', 'signer', 'keyid is the RFC 7638 thumbprint of a key in the published key set'),
  alg: rule('alg', 'client.signer-alg', 'signer', 'alg is ed25519 when sent'),
  nonceLength: rule('nonceLength', 'client.signer-nonce-length', 'signer', 'The nonce is 1 to 256 characters'),
  window: rule('window', 'client.signer-window', 'signer', 'A signature is valid for at most 3600 seconds (expires - created)'),
  signatureSize: rule('signatureSize', 'client.signer-signature-size', 'signer', 'Each signature is 64 bytes'),
  components: rule('components', 'client.signer-components', 'signer', 'Only the profile components and plain header fields are covered, each sent'),
  clock: rule('clock', 'client.signer-clock', 'signer', "created and expires are within 60 seconds of the platform's clock"),
  authority: rule('authority', 'client.signer-authority', 'signer', "The request is signed for the platform's own host"),
  bodySize: rule('bodySize', 'client.signer-body-size', 'signer', 'A signed request carries at most 4 MiB of body'),
  coverage: rule('coverage', 'client.signer-coverage', 'signer', 'The required components are covered, the Signature-Agent member exactly once'),
  agent: rule('agent', 'client.signer-agent', 'signer', 'Signature-Agent names the key set, and every label derives the same agent URL'),
  contentDigest: rule('contentDigest', 'client.signer-content-digest', 'signer', 'Content-Digest (sha-256 or sha-512) is sent over the exact body bytes'),
  keySet: rule('keySet', 'client.signer-key-set', 'signer', 'The key set is readable under the fetch rules and valid (2.4)'),
  signatureValid: rule('signatureValid', 'client.signer-signature-valid', 'signer', 'Every signature verifies under the published key'),
  keyContinuity: rule('keyContinuity', 'client.signer-key-continuity', 'signer', 'A new key signs beside a key the registration holds'),
  nonceUnique: rule('nonceUnique', 'client.signer-nonce-unique', 'signer', 'No nonce is used twice under the agent URL in the whole run'),
  card: rule('card', 'client.signer-card', 'signer', 'The agent card is readable and names itself (2.4)'),
  purchaseHeadersCovered: rule(
    'purchaseHeadersCovered',
    'client.signer-purchase-headers-covered',
    'signer',
    'Service-Terms-Accepted, Service-Payment-Methods and Service-Purchase are covered when sent',
  ),
  echo: rule('echo', 'client.buyer-echo', 'buyer', 'Every credential echoes, member for member, a challenge the platform issued'),
  termsAccepted: rule(
    'termsAccepted',
    'client.buyer-terms-accepted',
    'buyer',
    'A paid retry carries Service-Terms-Accepted with the named version, and the credential in Payment-Authorization',
  ),
  oneCredential: rule('oneCredential', 'client.buyer-one-credential', 'buyer', 'One credential per challenge: presented again, it is the same one'),
  sameCredential: rule(
    'sameCredential',
    'client.buyer-same-credential',
    'buyer',
    'After a 503 whose retry.sameCredential is true, exactly the same credential is re-presented, never a fresh one',
  ),
  retryAfter: rule('retryAfter', 'client.buyer-retry-after', 'buyer', 'A re-presentation waits for Retry-After, never earlier'),
  resendUnpaid: rule(
    'resendUnpaid',
    'client.buyer-resend-unpaid',
    'buyer',
    'After 409 purchase_already_granted or 503 funding_failed the request is resent without the credential',
  ),
  upstream: rule('upstream', 'client.buyer-upstream', 'buyer', 'A 502 upstream_payment_not_relayed ends the purchase: no credential follows'),
  termsSigned: rule(
    'termsSigned',
    'client.buyer-terms-signed',
    'buyer',
    'After 401 terms_acceptance_unauthenticated the credential is re-presented only on a signed request',
  ),
  transfer: rule(
    'transfer',
    'client.buyer-transfer',
    'buyer',
    'A stablecoin credential carries an unbroadcast transfer of exactly the quote, valid until the challenge expiry',
  ),
  submit: rule(
    'submit',
    'client.buyer-submit-after-paid',
    'buyer',
    'On the agent socket, payment.submit (scheme balance) comes only after the challenge was paid',
  ),
  pointer: rule('pointer', 'client.buyer-pointer', 'buyer', 'A purchase pointer is followed only when both hosts are allowed and a daily cap is configured'),
});

export const CLIENT_RULE_LIST: readonly ClientRule[] = Object.freeze(Object.values(CLIENT_RULES));
