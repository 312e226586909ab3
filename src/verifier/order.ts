import { AUTH_CODES } from '../spec/auth-errors.js';
import type { AuthErrorCode } from '../spec/auth-errors.js';
import {
  checkAuthority,
  checkBases,
  checkBodySize,
  checkCoverage,
  checkDigest,
  checkHeadersParse,
  checkLabels,
  checkPolicy,
  checkSignatureAgentHeader,
  checkSignatureAgentMembers,
} from './checks-local.js';
import { checkCardAndRegister, checkContinuity, checkKeyKnown, checkKeySet, checkNonces, checkSignatures } from './checks-remote.js';
import type { CheckResult, SignedContext } from './context.js';

export interface Check {
  readonly name: string;
  /** The codes this check can answer. */
  readonly codes: readonly AuthErrorCode[];
  /** Why it stands where it stands. */
  readonly why: string;
  readonly run: (ctx: SignedContext) => CheckResult | Promise<CheckResult>;
}

/**
 * The order of checks for a signed request (5.2, 7.3). When several conditions hold, the first check that
 * refuses decides the code. Before these, verifyRequest answers too_many_failed_signatures (before reading
 * anything) and request_body_consumed (nothing can be evaluated). The vectors pin this order.
 *
 * Principles: what needs only the request comes before what needs the network; cheap syntax before
 * meaning; within one label the platform SDK's order (params, size, time); state changes (nonce spent,
 * registration) only once the signatures verified.
 */
export const SIGNED_REQUEST_CHECKS: readonly Check[] = Object.freeze([
  {
    name: 'headers-parse',
    codes: [AUTH_CODES.signature_malformed],
    why: 'Nothing else can be read until Signature-Input and Signature parse and name the same labels, and a web-bot-auth label is chosen.',
    run: checkHeadersParse,
  },
  {
    name: 'labels',
    codes: [AUTH_CODES.signature_params_invalid, AUTH_CODES.signature_malformed, AUTH_CODES.signature_expired],
    why: 'Parameters, signature size, allowed components and time need only the label itself; the platform SDK checks them first, params before size before time.',
    run: checkLabels,
  },
  {
    name: 'authority',
    codes: [AUTH_CODES.signature_authority_mismatch],
    why: 'A signature made for another host is refused before any of its content is trusted (expiry wins over authority, as in the SDK).',
    run: checkAuthority,
  },
  {
    name: 'body-size',
    codes: [AUTH_CODES.signature_body_too_large],
    why: 'The 4 MiB cap is checked before the body is hashed.',
    run: checkBodySize,
  },
  {
    name: 'signature-agent-header',
    codes: [AUTH_CODES.signature_agent_invalid, AUTH_CODES.signature_malformed],
    why: 'Coverage names the Signature-Agent member, so the header must exist and parse before coverage is judged; its members are read after coverage.',
    run: checkSignatureAgentHeader,
  },
  {
    name: 'coverage',
    codes: [AUTH_CODES.signature_coverage_insufficient],
    why: 'What a label covers decides which Signature-Agent member it speaks for and whether the body is protected.',
    run: checkCoverage,
  },
  {
    name: 'signature-agent',
    codes: [AUTH_CODES.signature_agent_invalid],
    why: 'The covered member names the agent URL; every label must name the same one, in one of the three forms.',
    run: checkSignatureAgentMembers,
  },
  {
    name: 'policy',
    codes: [AUTH_CODES.credential_refused],
    why: 'An agent this platform will not admit is refused before any of its documents are fetched.',
    run: checkPolicy,
  },
  {
    name: 'content-digest',
    codes: [AUTH_CODES.content_digest_mismatch],
    why: 'The body digest is local and cheap; checking it before the network spares a fetch for a request that cannot pass.',
    run: checkDigest,
  },
  {
    name: 'signature-base',
    codes: [AUTH_CODES.signature_malformed],
    why: 'A base that cannot be built (a covered field the request lacks) is a malformed signature, known before any fetch.',
    run: checkBases,
  },
  {
    name: 'key-set',
    codes: [
      AUTH_CODES.key_set_unreachable,
      AUTH_CODES.key_set_invalid,
      AUTH_CODES.card_unreachable,
      AUTH_CODES.card_not_self_naming,
      AUTH_CODES.card_key_set_mismatch,
    ],
    why: 'The first network step: the key set (through the card for type=cimd), cached for 5 minutes including failures.',
    run: checkKeySet,
  },
  {
    name: 'key-known',
    codes: [AUTH_CODES.signature_key_unknown],
    why: 'Each keyid must name a key of the set before its signature can be checked.',
    run: checkKeyKnown,
  },
  {
    name: 'signatures',
    codes: [AUTH_CODES.signature_invalid],
    why: 'Ed25519 over the base built from the received text.',
    run: checkSignatures,
  },
  {
    name: 'key-continuity',
    codes: [AUTH_CODES.key_continuity_required],
    why: 'Only verified keys count as having signed, so continuity follows verification.',
    run: checkContinuity,
  },
  {
    name: 'nonce',
    codes: [AUTH_CODES.signature_replayed],
    why: 'Spent only once everything the request proves is checked, so a forged request cannot burn a nonce; a replay never reaches the card.',
    run: checkNonces,
  },
  {
    name: 'card-and-registration',
    codes: [AUTH_CODES.card_unreachable, AUTH_CODES.card_not_self_naming, AUTH_CODES.card_key_set_mismatch],
    why: 'First sight only: the card is read once the request proved itself, then the agent is registered with the keys that signed.',
    run: checkCardAndRegister,
  },
]);
