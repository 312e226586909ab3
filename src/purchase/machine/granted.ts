import { HEADERS } from '../../spec/headers.js';
import { MEDIA_TYPES } from '../../spec/media-types.js';
import { PAYMENT_CACHE_CONTROL } from '../../spec/payments.js';
import { termsHeaders } from './answers.js';
import { jcsBase64url } from '../wire/canonical-json.js';
import { instantOf } from '../wire/challenge.js';
import type { JsonObject } from '../wire/json.js';
import type { PurchaseGranted } from './ports/outcome.js';
import type { Grant, PurchaseConfig } from './ports/purchase.js';
import { BALANCE_MEMBERS, GRANTED_BODY_MEMBERS, RECEIPT_MEMBERS, RECEIPT_STATUS_SUCCESS } from '../wire/wire.js';
import { paysByCard } from './method.js';

/** The Payment-Receipt of a grant: its method, and the card charge's id or the transfer's hash as the reference (7.4). */
export function receiptOf(grant: Grant): JsonObject {
  return {
    [RECEIPT_MEMBERS.method]: grant.method,
    [RECEIPT_MEMBERS.reference]: grant.chargeId,
    [RECEIPT_MEMBERS.status]: RECEIPT_STATUS_SUCCESS,
    [RECEIPT_MEMBERS.timestamp]: instantOf(grant.grantedAt),
  };
}

/** The paid 200: the pack on the balance, the receipt; a card purchase also names its payment intent (docs/platform-sdk.md g), a transfer does not. */
export function grantedAnswer(grant: Grant, balanceNano: string, config: PurchaseConfig): PurchaseGranted {
  const receipt = receiptOf(grant);
  return Object.freeze({
    ok: true as const,
    status: 200 as const,
    headers: Object.freeze({
      [HEADERS.contentType]: MEDIA_TYPES.json,
      [HEADERS.cacheControl]: PAYMENT_CACHE_CONTROL,
      [HEADERS.paymentReceipt]: jcsBase64url(receipt),
      ...termsHeaders(config.terms.url, config.terms.version, config.naming),
    }),
    body: Object.freeze({
      [GRANTED_BODY_MEMBERS.ok]: true,
      [GRANTED_BODY_MEMBERS.granted]: true,
      [GRANTED_BODY_MEMBERS.packId]: grant.packId,
      [GRANTED_BODY_MEMBERS.balance]: { [BALANCE_MEMBERS.nano]: balanceNano },
      ...(paysByCard(grant.method) ? { [GRANTED_BODY_MEMBERS.paymentIntentId]: grant.chargeId } : {}),
      [GRANTED_BODY_MEMBERS.receipt]: receipt,
    }),
  });
}
