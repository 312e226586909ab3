import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { recordsOfPresented, sameCredentialCharge } from '../charge/record.js';
import { transferOfSameCredential } from '../transfer/record.js';
import { given } from './facts.js';
import { sharedGuard } from './guard.js';

/**
 * Section 3 row 1, asked before anything else: a credential whose charge was already sent (or whose transaction
 * was already recorded) under a challenge this surface sells resumes it. What the store holds for the credential is
 * read here once, for the guards after it too (the challenge's charge, the token's unreconciled payment).
 */
export const SAME_CREDENTIAL = sharedGuard({
  name: 'same-credential',
  codes: [
    PURCHASE_ERRORS.terms_acceptance_unauthenticated,
    PURCHASE_ERRORS.purchase_already_granted,
    PURCHASE_ERRORS.call_in_progress,
    PURCHASE_ERRORS.call_already_served,
    PURCHASE_ERRORS.call_refunded,
    PAYMENT_PROBLEMS.verificationFailed,
    PAYMENT_PROBLEMS.paymentExpired,
    PURCHASE_ERRORS.charge_processing,
    PURCHASE_ERRORS.charge_outcome_unknown,
    PURCHASE_ERRORS.tempo_unavailable,
    PURCHASE_ERRORS.tempo_settlement_pending,
    PURCHASE_ERRORS.grant_failed,
    PURCHASE_ERRORS.funding_failed,
    PURCHASE_ERRORS.sale_serve_pending,
  ],
  why: 'A payment already sent must finish, so no switch, terms version, price, cap or market change made since can strand it (section 3 row 1); only who may resume it is asked, by the surface.',
  needs: [],
  gives: ['recorded'],
  run: async (ctx) => {
    const { presented, ports, surface } = ctx;
    const recorded = await recordsOfPresented(presented, ports.store);
    const charge = await sameCredentialCharge(presented, recorded.charge, ports.store);
    if (charge !== undefined && surface.sells(charge.issued)) return surface.resumeCharge(ctx, charge.record, charge.issued);
    const transfer = presented.credential === undefined ? undefined : await transferOfSameCredential(presented.credential, ports);
    if (transfer !== undefined && surface.sells(transfer.issued)) return surface.resumeTransfer(ctx, transfer.record, transfer.issued, transfer.stablecoin);
    return given({ recorded });
  },
});
