import { HEADERS } from './headers.js';
import type { ProblemBases } from './problem-types.js';
import type { PurchaseErrorCode } from './purchase-errors.js';

/**
 * The Payment HTTP authentication scheme as the platform uses it (3, 4.7, 6, 7.4), with the names the spec
 * leaves to the Payment scheme's own drafts (draft-httpauth-payment, draft-tempo-charge, draft-stripe-charge).
 */

/** A header field name in the case it is written on the wire and inside auth-params: `payment-authorization` is `Payment-Authorization`. */
export function wireFieldName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * The header a credential goes in. Every platform challenge names it in its `header` auth-param, and the 503
 * retry object names it in `credentialHeader` (2.6). Spelled from the catalogue's header name.
 */
export const PAYMENT_CREDENTIAL_HEADER = wireFieldName(HEADERS.paymentAuthorization);

/** Where a client puts the credential when a challenge names no `header` (draft-httpauth-payment-02). */
export const DEFAULT_CREDENTIAL_HEADER = wireFieldName(HEADERS.authorization);

/** The header a buyer sends its assent in, as the 402 body's terms object names it. */
export const TERMS_ACCEPTED_HEADER = wireFieldName(HEADERS.termsAccepted);

/**
 * Payment method ids (7.4 "card" and "stablecoin"). The spec's card method (a shared payment token) is the
 * registered `stripe` method, not the registered `card` method, which means encrypted network tokens; the
 * stablecoin method (a transfer) is `tempo`.
 */
export const PAYMENT_METHODS = Object.freeze({ stripe: 'stripe', tempo: 'tempo' } as const);
export type PaymentMethodId = (typeof PAYMENT_METHODS)[keyof typeof PAYMENT_METHODS];

/** The spec's names for the two methods, mapped to the method ids on the wire. */
export const PAYMENT_METHOD_OF = Object.freeze({ card: PAYMENT_METHODS.stripe, stablecoin: PAYMENT_METHODS.tempo } as const);

/** Only `charge` is paid (docs/platform-sdk.md g). */
export const PAYMENT_INTENTS = Object.freeze({ charge: 'charge' } as const);

/** `payment-method-id = 1*%x61-7A` and `intent-token = 1*( ALPHA / DIGIT / "-" )` (draft-httpauth-payment). */
export const PAYMENT_METHOD_ID_PATTERN = /^[a-z]+$/;
export const PAYMENT_INTENT_PATTERN = /^[A-Za-z0-9-]+$/;

/** The Link relation a 402 names the terms with (7.4). */
export const LINK_RELS = Object.freeze({ termsOfService: 'terms-of-service' } as const);

/** payload.type of a stablecoin credential; the platform admits `transaction` only (7.4 invalid-payload). */
export const TEMPO_PAYLOAD_TYPES = Object.freeze({ transaction: 'transaction', hash: 'hash', proof: 'proof' } as const);

/** The member a card credential's payload carries its shared payment token in. */
export const STRIPE_PAYLOAD_MEMBERS = Object.freeze({ spt: 'spt' } as const);

/** Values of Service-Purchase (7.4): per-call sizing or a usage pack. */
export const PURCHASE_KINDS = Object.freeze({ exact: 'exact', pack: 'pack' } as const);

/** Auth-params of a Payment challenge, in the order the platform writes them (docs/platform-sdk.md g). */
export const CHALLENGE_PARAMS = Object.freeze({
  id: 'id',
  realm: 'realm',
  method: 'method',
  intent: 'intent',
  expires: 'expires',
  request: 'request',
  digest: 'digest',
  description: 'description',
  opaque: 'opaque',
  header: 'header',
} as const);
export type ChallengeParamName = (typeof CHALLENGE_PARAMS)[keyof typeof CHALLENGE_PARAMS];
export const CHALLENGE_PARAM_ORDER: readonly ChallengeParamName[] = Object.freeze(Object.values(CHALLENGE_PARAMS));
export const REQUIRED_CHALLENGE_PARAMS: readonly ChallengeParamName[] = Object.freeze([
  CHALLENGE_PARAMS.id,
  CHALLENGE_PARAMS.realm,
  CHALLENGE_PARAMS.method,
  CHALLENGE_PARAMS.intent,
  CHALLENGE_PARAMS.request,
]);

/** Members of the JSON a credential encodes: `{challenge, payload, source?}`. */
export const CREDENTIAL_MEMBERS = Object.freeze({ challenge: 'challenge', payload: 'payload', source: 'source' } as const);

/** Members of a purchase answer's JSON body (2.6; docs/platform-sdk.md g for the ones the spec leaves unshown). */
export const PURCHASE_BODY_MEMBERS = Object.freeze({
  error: 'error',
  errorCode: 'error_code',
  errorDescription: 'error_description',
  retry: 'retry',
  purchase: 'purchase',
  refund: 'refund',
  receipt: 'receipt',
  terms: 'terms',
  challengeId: 'challengeId',
} as const);
export type PurchaseBodyMember = (typeof PURCHASE_BODY_MEMBERS)[keyof typeof PURCHASE_BODY_MEMBERS];

/** Members of the terms object a 402 body carries (docs/platform-sdk.md g): where the terms are, their version, and the header assent goes in. */
export const TERMS_OBJECT_MEMBERS = Object.freeze({ url: 'url', version: 'version', header: 'header' } as const);

/** Members of the retry object (2.6). */
export const RETRY_MEMBERS = Object.freeze({ sameCredential: 'sameCredential', credentialHeader: 'credentialHeader' } as const);

/** payment_unreconciled: the body says whether the refund is issued or pending (7.4). */
export const REFUND_STATES = Object.freeze({ issued: 'issued', pending: 'pending' } as const);
export type RefundState = (typeof REFUND_STATES)[keyof typeof REFUND_STATES];

/** Rows of 7.4 whose body must carry more than the code: funding_failed has the purchase block, payment_unreconciled the refund state. */
export const PURCHASE_ROW_BODY: Readonly<Partial<Record<PurchaseErrorCode, readonly PurchaseBodyMember[]>>> = Object.freeze({
  funding_failed: Object.freeze([PURCHASE_BODY_MEMBERS.purchase]),
  payment_unreconciled: Object.freeze([PURCHASE_BODY_MEMBERS.refund]),
});

/** A 402 must not be stored (draft-httpauth-payment); neither may any answer to a Payment-Authorization credential. */
export const PAYMENT_CACHE_CONTROL = 'no-store';

/**
 * The Payment scheme's own refusals the platform answers with (3: an expired challenge, a decline, a
 * non-matching transaction, each with a fresh challenge). 7.4 does not list them; their slugs live under
 * {payment_problems_url}, all are 402 and all carry a fresh challenge.
 */
export interface PaymentProblemRecord {
  readonly slug: string;
  readonly base: keyof ProblemBases;
  readonly status: 402;
  readonly title: string;
  readonly challenge: true;
  readonly condition: string;
}

const paymentProblem = (slug: string, title: string, condition: string): PaymentProblemRecord =>
  Object.freeze({ slug, base: 'payment-problems', status: 402, title, challenge: true, condition });

export const PAYMENT_PROBLEMS = Object.freeze({
  paymentRequired: paymentProblem(
    'payment-required',
    'Payment Required',
    'This resource is paid; pay the challenge on this response and retry with the credential.',
  ),
  paymentExpired: paymentProblem(
    'payment-expired',
    'Payment Expired',
    'The challenge the credential answers has expired; pay the fresh challenge on this response.',
  ),
  invalidChallenge: paymentProblem(
    'invalid-challenge',
    'Invalid Challenge',
    'The credential echoes a challenge this resource did not issue or already redeemed; pay the fresh challenge on this response.',
  ),
  malformedCredential: paymentProblem(
    'malformed-credential',
    'Malformed Credential',
    'The credential could not be read; send Payment followed by the base64url JSON of the challenge and payload.',
  ),
  verificationFailed: paymentProblem(
    'verification-failed',
    'Verification Failed',
    'The payment did not verify or was declined; nothing was delivered; pay the fresh challenge on this response.',
  ),
});

/**
 * The stablecoin challenge's `request` (draft-tempo-charge): `{amount, currency, recipient, methodDetails:
 * {chainId, memo, supportedModes}}`; amount in the token's base units, currency the TIP-20 token contract,
 * recipient the deposit address (7.4).
 */
export const TEMPO_REQUEST_MEMBERS = Object.freeze({
  amount: 'amount',
  currency: 'currency',
  recipient: 'recipient',
  methodDetails: 'methodDetails',
} as const);

/** Members of the stablecoin request's `methodDetails` (draft-tempo-charge). */
export const TEMPO_METHOD_DETAILS_MEMBERS = Object.freeze({
  chainId: 'chainId',
  memo: 'memo',
  supportedModes: 'supportedModes',
  feePayer: 'feePayer',
} as const);

/** `supportedModes`: the platform takes a signed, unbroadcast transaction and broadcasts it itself (pull). */
export const TEMPO_MODES = Object.freeze({ pull: 'pull', push: 'push' } as const);

/** Members of a stablecoin credential's payload: `{type, signature}` (the serialized signed transaction) or `{type, hash}`. */
export const TEMPO_PAYLOAD_MEMBERS = Object.freeze({ type: 'type', signature: 'signature', hash: 'hash' } as const);

/** The TIP-20 function the paid transaction must call exactly once (7.4). */
export const TIP20_TRANSFER_WITH_MEMO = 'transferWithMemo';

/**
 * The TIP-20 token functions that move or allow moving the token, as a human-readable ABI (ox `Abi.from` reads it):
 * the paid call is encoded with transferWithMemo, and a call of another of them is named when it is refused.
 */
export const TIP20_TRANSFER_ABI = Object.freeze([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferWithMemo(address to, uint256 amount, bytes32 memo)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function transferFromWithMemo(address from, address to, uint256 amount, bytes32 memo) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
] as const);

/** The Tempo transaction type byte a stablecoin payload carries (draft-tempo-charge: `0x76…`). */
export const TEMPO_TRANSACTION_TYPE = '0x76';
