import type { RequirementRecord } from './types.js';

/**
 * The in-band purchase answers (4.7, 6, 7.4 last paragraph): frames of the agent socket, the MCP delegate's
 * status, the purchase pointer of the platform's LLM rails, and the SDK buyer's refusal. Member names the spec
 * leaves unshown follow the platform's UAMP socket and its pointer body (docs/platform-sdk.md g).
 */

/** Frame `type` values of section 6, plus `response.create`, the UAMP frame that starts a turn (6: "other frame kinds: not shown"). */
export const INBAND_FRAME_TYPES = Object.freeze({
  paymentRequired: 'payment.required',
  paymentSubmit: 'payment.submit',
  paymentAccepted: 'payment.accepted',
  responseDone: 'response.done',
  responseError: 'response.error',
  responseCreate: 'response.create',
} as const);
export type InbandFrameType = (typeof INBAND_FRAME_TYPES)[keyof typeof INBAND_FRAME_TYPES];

/** 6: on a funded turn each of these carries a terms object with url and version. */
export const FUNDED_FRAME_TYPES: readonly InbandFrameType[] = Object.freeze([
  INBAND_FRAME_TYPES.paymentAccepted,
  INBAND_FRAME_TYPES.responseDone,
  INBAND_FRAME_TYPES.responseError,
]);

/** `scheme` values: `token` (always index 0 of requirements.schemes), `mpp` (a challenge or a pointer), `balance` (payment.submit after paying). */
export const INBAND_SCHEMES = Object.freeze({ token: 'token', mpp: 'mpp', balance: 'balance' } as const);

/** Members every frame carries (UAMP): its type and an id. */
export const FRAME_MEMBERS = Object.freeze({
  type: 'type',
  eventId: 'event_id',
  requirements: 'requirements',
  payment: 'payment',
  terms: 'terms',
  response: 'response',
  error: 'error',
  paymentId: 'payment_id',
  balanceRemaining: 'balance_remaining',
  input: 'input',
} as const);

/** Members of `requirements` (payment.required and the pointer body). */
export const PAYMENT_REQUIREMENTS_MEMBERS = Object.freeze({ amount: 'amount', currency: 'currency', schemes: 'schemes', reason: 'reason' } as const);

/** Members of one `requirements.schemes` entry. A pointer's mpp entry holds `scheme` and `purchase_url` and nothing else. */
export const SCHEME_ENTRY_MEMBERS = Object.freeze({ scheme: 'scheme', challenge: 'challenge', purchaseUrl: 'purchase_url', terms: 'terms' } as const);

/** Members of payment.submit's `payment`. */
export const PAYMENT_SUBMIT_MEMBERS = Object.freeze({ scheme: 'scheme', amount: 'amount' } as const);

/** Members of the reference socket's `response` (done) and `error` (error) objects (UAMP; not shown in the spec). */
export const RESPONSE_MEMBERS = Object.freeze({ id: 'id', status: 'status', output: 'output' } as const);
export const RESPONSE_STATUS_COMPLETED = 'completed';
export const SOCKET_ERROR_MEMBERS = Object.freeze({ code: 'code', message: 'message' } as const);

/** The currency requirements name (the platform's pointer says USD). */
export const REQUIREMENTS_CURRENCY = 'USD';

/** Nano units of balance per unit of REQUIREMENTS_CURRENCY (a 500-cent pack credits 5 000 000 000 nano, docs/platform-sdk.md g). */
export const NANO_PER_CURRENCY_UNIT = 1_000_000_000n;

/** The pointer body of an LLM rail (docs/platform-sdk.md g "Purchase pointer"): `{error, details, requirements}`. */
export const POINTER_BODY_MEMBERS = Object.freeze({ error: 'error', details: 'details', requirements: 'requirements' } as const);
export const POINTER_BODY_TEXT = Object.freeze({ error: 'Budget exhausted', details: 'Insufficient token balance' } as const);

/** 4.7: the MCP delegate operation's status member. Only balance_required is the spec's; completed is the reference's word for a call that ran. */
/**
 * The MCP delegate operation of 4.7 as an MCP tool: `delegate`, and `call`, the argument carrying the delegated call
 * (JSON). The spec names the operation, not the tool ("Other shapes of the delegate request and response: not shown"):
 * these are the reference's names, which the checks call a deployment's MCP endpoint with.
 */
export const DELEGATE_OPERATION = Object.freeze({ name: 'delegate', callArgument: 'call' } as const);
export const DELEGATE_MEMBERS = Object.freeze({ status: 'status', result: 'result' } as const);
export const DELEGATE_STATUSES = Object.freeze({ balanceRequired: 'balance_required', completed: 'completed' } as const);

/** 6: the SDK buyer's refusal of a pointer (an SDK-side reason, never a wire code). */
export const BUYER_REFUSAL_REASONS = Object.freeze({ pointerNeedsDailyCap: 'pointer_needs_daily_cap' } as const);

/** `response.error` codes of the reference agent socket (its own; the spec shows none). */
export const SOCKET_ERROR_CODES = Object.freeze({
  invalidFrame: 'invalid_frame',
  turnInProgress: 'turn_in_progress',
  noTurnWaiting: 'no_turn_waiting',
  schemeUnsupported: 'payment_scheme_unsupported',
  turnFailed: 'turn_failed',
} as const);

const r = (id: string, section: string, condition: string): RequirementRecord => Object.freeze({ id, section, level: 'MUST', condition });

/** The rules of the in-band answers, as suites name them. */
export const INBAND_REQUIREMENTS = Object.freeze({
  paymentRequired: r(
    'PURCHASE-INBAND-PAYMENT-REQUIRED',
    '6',
    'A turn the balance does not cover gets payment.required and waits; requirements.schemes[0] is token; an mpp entry carries challenge (the Payment challenge value), purchase_url and terms.',
  ),
  paymentSubmit: r(
    'PURCHASE-INBAND-PAYMENT-SUBMIT',
    '6',
    'After the challenge was paid the client sends payment.submit with payment.scheme balance; the turn then runs.',
  ),
  fundedTerms: r(
    'PURCHASE-INBAND-FUNDED-TERMS',
    '6',
    'On a funded turn payment.accepted, response.done and response.error each carry a terms object with url and version.',
  ),
  pointer: r(
    'PURCHASE-INBAND-POINTER',
    '6',
    'On the platform LLM rails a caller whose platform token ran out receives requirements.schemes with the token entry at index 0 and an mpp entry holding only purchase_url (no challenge), where the deployment sells usage at all; no WWW-Authenticate: Payment.',
  ),
  buyerPointerRule: r(
    'PURCHASE-INBAND-BUYER-POINTER-RULE',
    '6',
    'An SDK buyer follows a pointer only when both the pointer host and the host that named it are on its allowlist and a daily spend cap is configured; otherwise it refuses with pointer_needs_daily_cap and sends nothing.',
  ),
  balanceRequired: r(
    'PURCHASE-INBAND-BALANCE-REQUIRED',
    '4.7',
    "The MCP delegate answers status balance_required when the agent's balance does not cover the call, and the call did not run.",
  ),
  socketUpgradeRefusal: r(
    'PURCHASE-INBAND-SOCKET-UPGRADE',
    '7.4',
    'A signed upgrade of the agent socket that does not verify is refused with 401 and Accept-Signature before the socket opens.',
  ),
});
