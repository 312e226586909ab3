import { requirementId } from './ids.js';
import type { PurchaseErrorRecord } from './types.js';

type Status = PurchaseErrorRecord['status'];
interface Row {
  code: string;
  status: Status;
  condition: string;
  problemBase?: 'problems' | 'payment-problems';
  challenge?: boolean;
  sameCredential?: boolean;
  retryAfter?: boolean;
}

// Section 7.4, in the spec's order. Rows naming two codes are split; problem types keep their slug.
const rows = [
  {
    code: 'terms-acceptance-required',
    status: 402,
    problemBase: 'problems',
    challenge: true,
    condition: 'Send Service-Terms-Accepted with the named version (covered when signed); a fresh challenge rides on the response',
  },
  {
    code: 'terms-version-stale',
    status: 402,
    problemBase: 'problems',
    challenge: true,
    condition:
      'Version sent or challenge version no longer current; retry with the fresh version. A credential whose card charge was already sent resumes under the version of its own challenge.',
  },
  {
    code: 'terms_acceptance_unauthenticated',
    status: 401,
    condition:
      'Acceptance is taken only from a request authenticated as the buying agent; nothing claimed or charged; no challenge. Re-present the credential on a signed request or with the platform token.',
  },
  { code: 'mpp_disabled', status: 403, condition: 'Buying with this payment method is not open on the deployment; nothing charged' },
  { code: 'purchases_disabled', status: 403, condition: 'Purchases closed in every market' },
  { code: 'purchases_unavailable_region', status: 403, condition: "Closed for the payment instrument's market, or its country cannot be established" },
  { code: 'buyer_inactive', status: 403, condition: 'The account the challenge names is not an active agent (single-call resources)' },
  { code: 'challenge_kind_mismatch', status: 403, condition: 'Pack challenge presented for a call or the reverse' },
  {
    code: 'challenge_origin_mismatch',
    status: 403,
    condition:
      'Challenge issued by another resource; a pack challenge is honoured at /api/mpp/credits from any resource; a single-call challenge only where issued',
  },
  {
    code: 'ownerless_balance_cap',
    status: 403,
    condition:
      'Agent has no owner and its purchased balance is at the ownerless limit; claim it with an owner key (X-Service-Owner-Key on a signed request) or spend the balance',
  },
  {
    code: 'metered_unavailable_for_card',
    status: 403,
    condition:
      'Per-call card offer cannot be paid now (card country or per-call terms changed); nothing charged; resend without the credential to get a pack challenge',
  },
  {
    code: 'stablecoin_location_unknown',
    status: 403,
    condition:
      'Transfer carries no buyer location and the deployment does not sell to unplaceable buyers; pay by card or omit stablecoin from Service-Payment-Methods',
  },
  {
    code: 'metered_unavailable_for_stablecoin',
    status: 403,
    condition: 'Per-call terms changed after the challenge; nothing broadcast; resend without credential for a pack challenge',
  },
  { code: 'foreign_token', status: 403, condition: 'Shared payment token already paid another purchase; obtain a new token' },
  {
    code: 'method-unsupported',
    status: 400,
    problemBase: 'payment-problems',
    condition:
      'Credential echoes a challenge whose method the resource does not accept (card always; stablecoin only where a transfer was offered); no challenge; request again',
  },
  {
    code: 'invalid-payload',
    status: 402,
    problemBase: 'payment-problems',
    challenge: true,
    condition:
      'Payload readable but not admitted: stablecoin challenge admits payload.type transaction only (never hash, never proof for a priced call); fresh challenge rides',
  },
  {
    code: 'metered_instrument_cap',
    status: 429,
    retryAfter: true,
    condition: 'Single-call purchase over the daily limit for this card or wallet; retry after Retry-After, or buy a pack',
  },
  {
    code: 'metered_platform_ceiling',
    status: 429,
    retryAfter: true,
    condition: 'Single-call purchase over the daily limit platform-wide; retry after Retry-After, or buy a pack',
  },
  {
    code: 'metered_ip_cap',
    status: 429,
    condition: 'Unidentified single-call purchase over the daily limit for the network address; retry later or sign with an agent key',
  },
  {
    code: 'metered_principal_cap',
    status: 429,
    condition: 'Agent reached its daily exact top-ups (counted across account and signing identity); retry later or buy a pack',
  },
  { code: 'wallet_daily_cap', status: 429, retryAfter: true, condition: 'Paying wallet reached its daily limit; nothing broadcast; retry after Retry-After' },
  {
    code: 'purchase_already_granted',
    status: 409,
    sameCredential: false,
    condition: 'Credential already redeemed and usage is on the balance; nothing charged, call not run; resend the request without the credential',
  },
  { code: 'call_in_progress', status: 409, sameCredential: false, condition: 'Single call is being served from an earlier presentation' },
  { code: 'call_already_served', status: 409, sameCredential: false, condition: 'Single call already served' },
  { code: 'call_refunded', status: 409, sameCredential: false, condition: 'Single call refunded, not served' },
  {
    code: 'upstream_payment_not_relayed',
    status: 502,
    condition:
      'An agent answered with its own payment challenge; the service relays no challenges, receipts or credentials; pay only where the service challenges',
  },
  {
    code: 'terms_record_failed',
    status: 503,
    sameCredential: true,
    retryAfter: true,
    condition: 'Acceptance not recorded, nothing charged; re-present the same credential after Retry-After',
  },
  {
    code: 'purchase_in_flight',
    status: 503,
    sameCredential: true,
    condition: 'Another purchase for this buyer is settling; one at a time; re-present the same credential',
  },
  {
    code: 'purchase_lock_unavailable',
    status: 503,
    sameCredential: true,
    condition: 'Serialising lock unavailable, purchase not started; re-present the same credential',
  },
  { code: 'charge_outcome_unknown', status: 503, sameCredential: true, condition: 'Card charge sent, outcome unknown; re-present the same credential' },
  {
    code: 'charge_processing',
    status: 503,
    sameCredential: true,
    condition: 'Card charge neither settled nor declined; re-present the same credential; not a decline',
  },
  { code: 'grant_failed', status: 503, sameCredential: true, condition: 'Payment settled, usage not yet credited; re-present the same credential' },
  {
    code: 'sale_serve_pending',
    status: 503,
    sameCredential: true,
    condition: 'Single-call payment settled but the call did not start; re-present the same credential; served once',
  },
  {
    code: 'tempo_unavailable',
    status: 503,
    sameCredential: true,
    retryAfter: true,
    condition: 'Stablecoin network unreachable; nothing broadcast; re-present the same credential after Retry-After while challenge and transaction are valid',
  },
  {
    code: 'tempo_settlement_pending',
    status: 503,
    sameCredential: true,
    condition:
      'Transfer broadcast, not yet settled; re-present the same credential; completes against the same transfer even after challenge expiry; never sign another',
  },
  {
    code: 'funding_failed',
    status: 503,
    sameCredential: false,
    condition: 'Purchase settled and credited but the call could not be funded; body has the purchase block; resend the request without a credential',
  },
  {
    code: 'funding_unavailable',
    status: 503,
    sameCredential: false,
    retryAfter: true,
    condition:
      'Balance covers the call but it is held by in-flight calls or the funding step failed; nothing charged; resend the same request after Retry-After; do not buy',
  },
  {
    code: 'payment_unreconciled',
    status: 503,
    sameCredential: false,
    condition: 'Card payment could not be matched to anything sold and was refunded; body says whether the refund is issued or pending; obtain a fresh token',
  },
  { code: 'metered_not_ready', status: 503, sameCredential: false, condition: 'Single calls without an agent identity not yet sold; sign with an agent key' },
  {
    code: 'mpp_not_configured',
    status: 503,
    sameCredential: false,
    condition: 'No acceptable payment method offered now (none offered, or Service-Payment-Methods names none offered); widen the list or retry later',
  },
] as const satisfies readonly Row[];

export type PurchaseErrorCode = (typeof rows)[number]['code'];

function toRecord(row: Row): PurchaseErrorRecord {
  const base = {
    id: requirementId('PURCHASE', row.code),
    section: '7.4' as const,
    level: 'MUST' as const,
    status: row.status,
    code: row.code,
    condition: row.condition,
    kind: row.problemBase ? ('problem' as const) : ('code' as const),
    challenge: row.challenge === true,
    retryAfter: row.retryAfter === true,
  };
  return Object.freeze({
    ...base,
    ...(row.problemBase ? { problemBase: row.problemBase } : {}),
    ...(row.sameCredential === undefined ? {} : { retry: Object.freeze({ sameCredential: row.sameCredential }) }),
  });
}

export const PURCHASE_ERROR_LIST: readonly PurchaseErrorRecord[] = Object.freeze(rows.map((r) => toRecord(r as Row)));
export const PURCHASE_ERRORS = Object.freeze(Object.fromEntries(PURCHASE_ERROR_LIST.map((r) => [r.code, r]))) as {
  readonly [C in PurchaseErrorCode]: PurchaseErrorRecord & { readonly code: C };
};
