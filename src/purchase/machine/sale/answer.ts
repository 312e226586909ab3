import { HEADERS } from '../../../spec/headers.js';
import { PAYMENT_CACHE_CONTROL } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, termsHeaders, type PurchaseAnswer } from '../answers.js';
import { jcsBase64url } from '../../wire/canonical-json.js';
import type { JsonObject } from '../../wire/json.js';
import { receiptOf } from '../granted.js';
import { surfaceOf } from '../ports/outcome.js';
import type { Grant, PurchaseConfig } from '../ports/purchase.js';
import { BALANCE_MEMBERS, GRANTED_BODY_MEMBERS } from '../../wire/wire.js';
import type { CallResponse, SaleState } from './ports.js';
import { paysByCard } from '../method.js';

/** The resource's own response to a funded call, with the paid surface's headers on it. */
export interface CallAnswer {
  readonly call: true;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as the resource produced it. */
  readonly body: Uint8Array | null;
}

export type SaleOutcome = PurchaseAnswer | CallAnswer;

export function isCallAnswer(outcome: SaleOutcome): outcome is CallAnswer {
  return 'call' in outcome;
}

/**
 * A funded call's answer: the resource's status, headers and body, then the terms headers (they ride on every
 * response of a paid surface once it funded the call, 7.4) and, on a call bought with a credential,
 * Cache-Control no-store (every answer to a Payment-Authorization credential, draft-httpauth-payment-02) and,
 * when the call succeeded, the Payment-Receipt (2xx only).
 */
export function callAnswer(response: CallResponse, config: PurchaseConfig, grant?: Grant): CallAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  Object.assign(headers, termsHeaders(config.terms.url, config.terms.version, config.naming));
  if (grant !== undefined) {
    headers[HEADERS.cacheControl] = PAYMENT_CACHE_CONTROL;
    // A final answer's status is 200 or more (a Response cannot carry less): a success is one under 300.
    if (response.status < 300) headers[HEADERS.paymentReceipt] = jcsBase64url(receiptOf(grant));
    else delete headers[HEADERS.paymentReceipt];
  }
  return Object.freeze({ call: true as const, status: response.status, headers: Object.freeze(headers), body: response.body });
}

/** The purchase block of a settled single-call purchase (docs/platform-sdk.md g: `{granted, packId, paymentIntentId, …}`; a transfer names no payment intent). */
export function purchaseBlock(grant: Grant, balanceNano: string): JsonObject {
  return {
    [GRANTED_BODY_MEMBERS.granted]: true,
    [GRANTED_BODY_MEMBERS.packId]: grant.packId,
    [GRANTED_BODY_MEMBERS.balance]: { [BALANCE_MEMBERS.nano]: balanceNano },
    ...(paysByCard(grant.method) ? { [GRANTED_BODY_MEMBERS.paymentIntentId]: grant.chargeId } : {}),
    [GRANTED_BODY_MEMBERS.receipt]: receiptOf(grant),
  };
}

/** The 409 a credential presented again gets once its sale moved past `open` (section 3 rows 4 to 7), with the receipt of its payment. */
export function settledAgainAnswer(state: Exclude<SaleState, 'open' | 'declined'>, grant: Grant | undefined, config: PurchaseConfig): PurchaseAnswer {
  const record = {
    serving: PURCHASE_ERRORS.call_in_progress,
    served: PURCHASE_ERRORS.call_already_served,
    refunded: PURCHASE_ERRORS.call_refunded,
    unfunded: PURCHASE_ERRORS.purchase_already_granted,
  }[state];
  return purchaseAnswer(record, surfaceOf(config), grant === undefined ? {} : { receipt: receiptOf(grant) });
}
