import { PAYMENT_METHODS, type PaymentMethodId } from '../../spec/payments.js';
import { PURCHASE_ERRORS, type PurchaseErrorCode } from '../../spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../../spec/purchase-requirements.js';
import type { UnreachableRow } from './types.js';

const { stripe, tempo } = PAYMENT_METHODS;
const both = [stripe, tempo] as const;

/**
 * For every row of 7.4, the methods the purchase machine answers it for (a sequence per method must show it),
 * or why no sequence against the machine can reach it. Single-call rows are card only: the sale machine sells
 * calls by card (src/purchase/machine/sale/offer.ts SINGLE_CALL_OFFERS).
 */
export const ROW_METHODS: Readonly<Record<PurchaseErrorCode, readonly PaymentMethodId[] | { readonly unreachable: string }>> = Object.freeze({
  'terms-acceptance-required': both,
  'terms-version-stale': both,
  terms_acceptance_unauthenticated: both,
  mpp_disabled: both,
  purchases_disabled: both,
  purchases_unavailable_region: both,
  buyer_inactive: [stripe],
  challenge_kind_mismatch: [stripe],
  challenge_origin_mismatch: [stripe],
  ownerless_balance_cap: both,
  metered_unavailable_for_card: [stripe],
  stablecoin_location_unknown: [tempo],
  metered_unavailable_for_stablecoin: {
    unreachable:
      'the single-call sale machine sells calls by card only (src/purchase/machine/sale/offer.ts SINGLE_CALL_OFFERS has no tempo offer), so no per-call stablecoin challenge exists whose terms could change',
  },
  foreign_token: [stripe],
  'method-unsupported': both,
  'invalid-payload': both,
  metered_instrument_cap: [stripe],
  metered_platform_ceiling: [stripe],
  metered_ip_cap: [stripe],
  metered_principal_cap: [stripe],
  wallet_daily_cap: [tempo],
  purchase_already_granted: both,
  call_in_progress: [stripe],
  call_already_served: [stripe],
  call_refunded: [stripe],
  upstream_payment_not_relayed: {
    unreachable:
      "answered by the platform's agent relay when an agent's own answer carries a payment challenge, not by the purchase machine (no port of the machine sees an agent's response)",
  },
  terms_record_failed: both,
  purchase_in_flight: both,
  purchase_lock_unavailable: both,
  charge_outcome_unknown: [stripe],
  charge_processing: [stripe],
  grant_failed: both,
  sale_serve_pending: [stripe],
  tempo_unavailable: [tempo],
  tempo_settlement_pending: [tempo],
  funding_failed: [stripe],
  funding_unavailable: [stripe],
  payment_unreconciled: [stripe],
  metered_not_ready: [stripe],
  mpp_not_configured: both,
});

/** Rules of PURCHASE_REQUIREMENTS the machine's sequences cannot show, and why. */
export const UNREACHABLE_REQUIREMENTS: Readonly<Record<string, string>> = Object.freeze({
  [PURCHASE_REQUIREMENTS.verifierCodeOnPaidSurface.id]:
    "a refused signature or bearer is answered by the verifier before the purchase machine runs (src/purchase/machine/sale/http.ts passes the verifier's 401 through); see vectors/signed-requests.json",
  [PURCHASE_REQUIREMENTS.cliTokenSameRefusal.id]:
    "the refusal is the verifier's, at POST /api/auth/cli/token and on the paid surface alike, before any purchase machine runs; the suite compares the two routes (check purchase.cli-token-same-refusal)",
});

/** The rows and requirements no sequence reaches, as the vector file lists them. */
export function unreachableRows(): UnreachableRow[] {
  const rows = Object.entries(ROW_METHODS).flatMap(([code, methods]) =>
    'unreachable' in methods ? [{ id: PURCHASE_ERRORS[code as PurchaseErrorCode].id, code, reason: methods.unreachable }] : [],
  );
  return [...rows, ...Object.entries(UNREACHABLE_REQUIREMENTS).map(([id, reason]) => ({ id, reason }))];
}
