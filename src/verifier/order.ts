/**
 * Why the order is shaped so. Each check is a step that reads typed facts and, when it does not refuse, gives typed
 * facts (context.ts: `Facts`): headers-parse gives the labels, labels their parameters, coverage the member each
 * label speaks for, signature-agent the identity, key-set the keys, key-continuity the registration that
 * card-and-registration then reads. A check names what it `needs` and `gives`, and its `run` takes exactly
 * `In<needs>`: no placeholder, and no fact read before a check gave it. The compiler proves the table below in order
 * (`InOrder`): moving a check above what it needs fails to compile. The order is also a value the configuration
 * may change (READING-CHECK-ORDER: the self-test's variants move checks, its deep mutants wrap or drop them), so
 * verifyRequest checks a configured order the same way once (`orderProblem`) and will not run one whose check needs
 * a fact no earlier check gives. Facts stay separate (not one label record growing step by step) so that a check
 * depends only on what it reads and may move anywhere after that: a judgement that gives nothing (authority,
 * policy, nonce, ...) moves freely.
 */
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
import { checkCardAndRegister, checkContinuity, checkKeyKnown, checkKeySet, checkSignatures } from './checks-remote.js';
import { checkNonces, reserveNonces } from './nonces.js';
import type { CheckRun, FactName, In, Outcome } from './context.js';
import type { Awaitable } from './ports.js';
import { type InOrder, orderProblem as stepsOrderProblem } from '../steps/order.js';

export interface Check {
  readonly name: string;
  /** The codes this check can answer. */
  readonly codes: readonly AuthErrorCode[];
  /** Why it stands where it stands. */
  readonly why: string;
  /** The facts it reads, each given by an earlier check. */
  readonly needs: readonly FactName[];
  /** The facts it gives the checks after it when it does not refuse. */
  readonly gives: readonly FactName[];
  readonly run: (input: In<FactName>) => Awaitable<Outcome>;
}

/** A check as written: `run` reads exactly the facts of `needs` and answers exactly those of `gives`. */
export interface TypedCheck<N extends FactName, G extends FactName> extends Check {
  readonly needs: readonly N[];
  readonly gives: readonly G[];
  readonly run: CheckRun<N, G>;
}

export function typedCheck<N extends FactName = never, G extends FactName = never>(
  check: Omit<TypedCheck<N, G>, 'run'> & { readonly run: CheckRun<NoInfer<N>, NoInfer<G>> },
): TypedCheck<N, G> {
  return Object.freeze(check);
}

/** What the acceptance of a signed request reports (verify-request.ts). */
export const ACCEPTANCE_NEEDS = ['labels', 'params', 'identity', 'registered'] as const satisfies readonly FactName[];

/** Why `checks` cannot run in this order, or null (src/steps/order.ts), the acceptance reading its facts last. */
export function orderProblem(checks: readonly Check[]): string | null {
  return stepsOrderProblem(checks, 'check', ACCEPTANCE);
}

const ACCEPTANCE = { name: 'the acceptance', needs: ACCEPTANCE_NEEDS };

const TABLE = [
  typedCheck({
    name: 'headers-parse',
    codes: [AUTH_CODES.signature_malformed],
    why: 'Nothing else can be read until Signature-Input and Signature parse and name the same labels, and a web-bot-auth label is chosen.',
    needs: [],
    gives: ['labels'],
    run: checkHeadersParse,
  }),
  typedCheck({
    name: 'labels',
    codes: [AUTH_CODES.signature_params_invalid, AUTH_CODES.signature_malformed, AUTH_CODES.signature_expired],
    why: 'Parameters, signature size, allowed components and time need only the label itself; the platform SDK checks them first, params before size before time.',
    needs: ['labels'],
    gives: ['params'],
    run: checkLabels,
  }),
  typedCheck({
    name: 'authority',
    codes: [AUTH_CODES.signature_authority_mismatch],
    why: 'A signature made for another host is refused before any of its content is trusted (expiry wins over authority, as in the SDK).',
    needs: [],
    gives: [],
    run: checkAuthority,
  }),
  typedCheck({
    name: 'body-size',
    codes: [AUTH_CODES.signature_body_too_large],
    why: 'The 4 MiB cap is checked before the body is hashed.',
    needs: [],
    gives: [],
    run: checkBodySize,
  }),
  typedCheck({
    name: 'signature-agent-header',
    codes: [AUTH_CODES.signature_agent_invalid, AUTH_CODES.signature_malformed],
    why: 'Coverage names the Signature-Agent member, so the header must exist and parse before coverage is judged; its members are read after coverage.',
    needs: [],
    gives: ['agentDictionary'],
    run: checkSignatureAgentHeader,
  }),
  typedCheck({
    name: 'coverage',
    codes: [AUTH_CODES.signature_coverage_insufficient],
    why: 'What a label covers decides which Signature-Agent member it speaks for and whether the body is protected.',
    needs: ['labels', 'agentDictionary'],
    gives: ['agentKeys'],
    run: checkCoverage,
  }),
  typedCheck({
    name: 'signature-agent',
    codes: [AUTH_CODES.signature_agent_invalid],
    why: 'The covered member names the agent URL; every label must name the same one, in one of the three forms.',
    needs: ['agentDictionary', 'agentKeys'],
    gives: ['identity'],
    run: checkSignatureAgentMembers,
  }),
  typedCheck({
    name: 'policy',
    codes: [AUTH_CODES.credential_refused],
    why: 'An agent this platform will not admit is refused before any of its documents are fetched.',
    needs: ['identity'],
    gives: [],
    run: checkPolicy,
  }),
  typedCheck({
    name: 'content-digest',
    codes: [AUTH_CODES.content_digest_mismatch],
    why: 'The body digest is local and cheap; checking it before the network spares a fetch for a request that cannot pass.',
    needs: ['labels'],
    gives: [],
    run: checkDigest,
  }),
  typedCheck({
    name: 'signature-base',
    codes: [AUTH_CODES.signature_malformed],
    why: 'A base that cannot be built (a covered field the request lacks) is a malformed signature, known before any fetch.',
    needs: ['labels', 'agentDictionary'],
    gives: ['bases'],
    run: checkBases,
  }),
  typedCheck({
    name: 'key-set',
    codes: [
      AUTH_CODES.key_set_unreachable,
      AUTH_CODES.key_set_invalid,
      AUTH_CODES.card_unreachable,
      AUTH_CODES.card_not_self_naming,
      AUTH_CODES.card_key_set_mismatch,
    ],
    why: 'The first network step: the key set (through the card for type=cimd), cached for 5 minutes including failures.',
    needs: ['identity'],
    gives: ['keySet'],
    run: checkKeySet,
  }),
  typedCheck({
    name: 'key-known',
    codes: [AUTH_CODES.signature_key_unknown],
    why: 'Each keyid must name a key of the set before its signature can be checked.',
    needs: ['labels', 'params', 'keySet'],
    gives: ['keys'],
    run: checkKeyKnown,
  }),
  typedCheck({
    name: 'nonce-reserve',
    codes: [],
    why: 'Refuses nothing: a store that can forget a nonce starts spending now, so its round trip overlaps the Ed25519 check; forgotten again if a check before the nonce refuses.',
    needs: ['labels', 'params', 'identity'],
    gives: ['reservation'],
    run: reserveNonces,
  }),
  typedCheck({
    name: 'signatures',
    codes: [AUTH_CODES.signature_invalid],
    why: 'Ed25519 over the base built from the received text.',
    needs: ['labels', 'bases', 'keys'],
    gives: [],
    run: checkSignatures,
  }),
  typedCheck({
    name: 'key-continuity',
    codes: [AUTH_CODES.key_continuity_required],
    why: 'Only verified keys count as having signed, so continuity follows verification.',
    needs: ['identity', 'params'],
    gives: ['registration'],
    run: checkContinuity,
  }),
  typedCheck({
    name: 'nonce',
    codes: [AUTH_CODES.signature_replayed],
    why: 'Judged only once everything the request proves is checked, so a forged request burns no nonce; a replay never reaches the card.',
    needs: ['reservation'],
    gives: [],
    run: checkNonces,
  }),
  typedCheck({
    name: 'card-and-registration',
    codes: [AUTH_CODES.card_unreachable, AUTH_CODES.card_not_self_naming, AUTH_CODES.card_key_set_mismatch],
    why: 'First sight only: the card is read once the request proved itself, then the agent is registered with the keys that signed.',
    needs: ['identity', 'params', 'keySet', 'registration'],
    gives: ['registered'],
    run: checkCardAndRegister,
  }),
] as const;

/** Compiles only while the table is in an order its checks can run in (see InOrder). */
const proven: InOrder<typeof TABLE, (typeof ACCEPTANCE_NEEDS)[number]> = true;

export const SIGNED_REQUEST_CHECKS: readonly Check[] = proven && Object.freeze(TABLE);
