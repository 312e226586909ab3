/**
 * Member names of the machine's own JSON that the spec leaves unshown (2.6 "Fields of the receipt and of the
 * purchase block in bodies: not shown"). They follow the platform (docs/platform-sdk.md g) and the Payment scheme's
 * receipt (draft-httpauth-payment). Kept with the machine rather than in src/spec/payments.ts: they are wire
 * member names, not codes, header names or limits.
 */

/** The challenge's `request` for the card method (draft-stripe-charge): `{amount, currency, methodDetails: {networkId?, paymentMethodTypes}}`. */
export const STRIPE_REQUEST_MEMBERS = Object.freeze({
  amount: 'amount',
  currency: 'currency',
  methodDetails: 'methodDetails',
  networkId: 'networkId',
  paymentMethodTypes: 'paymentMethodTypes',
} as const);

/** The card payment method type a shared payment token is minted for. */
export const STRIPE_PAYMENT_METHOD_TYPE_CARD = 'card';

/** The challenge's `opaque` (docs/platform-sdk.md g: `{packId, userId, kind, terms}`; `nonce` makes every id unique). */
export const OPAQUE_MEMBERS = Object.freeze({ packId: 'packId', kind: 'kind', terms: 'terms', nonce: 'nonce' } as const);

/** Bytes of randomness in a challenge's nonce. */
export const CHALLENGE_NONCE_BYTES = 16;

/** The paid 200 body (docs/platform-sdk.md g): `{ok, granted, packId, balance: {nano}, paymentIntentId, receipt}`. */
export const GRANTED_BODY_MEMBERS = Object.freeze({
  ok: 'ok',
  granted: 'granted',
  packId: 'packId',
  balance: 'balance',
  paymentIntentId: 'paymentIntentId',
  receipt: 'receipt',
} as const);

export const BALANCE_MEMBERS = Object.freeze({ nano: 'nano' } as const);

/** The Payment-Receipt JSON (draft-httpauth-payment): `{method, reference, status: "success", timestamp}`. */
export const RECEIPT_MEMBERS = Object.freeze({ method: 'method', reference: 'reference', status: 'status', timestamp: 'timestamp' } as const);
export const RECEIPT_STATUS_SUCCESS = 'success';

/** Prefix of the processor idempotency key; the challenge id follows (a challenge is redeemed once). */
export const IDEMPOTENCY_KEY_PREFIX = 'mpp_';

/** Retry-After seconds on the 7.4 rows that carry one, unless the deployment sets its own (docs/platform-sdk.md g: the platform sends 5). */
export const DEFAULT_RETRY_AFTER_S = 5;

/**
 * The Date header field (RFC 9110 section 6.6.1): the spec does not name it, so the catalogue's HEADERS does not hold
 * it. A challenge's expiry is judged from it when an answer carries one (READING-CHALLENGE-EXPIRY).
 */
export const HTTP_DATE_FIELD = 'date';

/** The terms a paid surface names: {terms_url} and the current version. */
export interface TermsNotice {
  readonly url: string;
  readonly version: string;
}
