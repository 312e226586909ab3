import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { chargeGrant } from '../charge/record.js';
import { chargeStep, resumeSend, type ChargeStep } from '../charge/step.js';
import { grantedAnswer, receiptOf } from '../granted.js';
import { withFreshChallenge } from '../issue.js';
import { surfaceOf, type PurchaseOutcome, type PurchaseRequest } from '../ports/outcome.js';
import type { ChargeRecord, ChargeReply, GrantResult, PurchaseConfig, PurchasePorts } from '../ports/purchase.js';

/** Credits the pack once for a settled charge; a store fault is 503 grant_failed (the same credential completes it). */
async function grantSettled(record: ChargeRecord, chargeId: string, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  try {
    const result = await ports.store.grant(chargeGrant(record, chargeId, now));
    return creditedAnswer(result, config);
  } catch {
    return purchaseAnswer(PURCHASE_ERRORS.grant_failed, surfaceOf(config));
  }
}

/**
 * Granted here, or by a settlement report that landed while this presentation was in flight: either way this
 * presentation is the one that tells the buyer, so it answers 200 (409 is for a later presentation).
 */
function creditedAnswer(result: GrantResult, config: PurchaseConfig): PurchaseOutcome {
  return grantedAnswer(result.grant, result.balanceNano, config);
}

/** The pack's answer to the processor's word on a charge: settled credits the pack; failed a fresh challenge; the two 503s. */
export function packChargeAnswer(step: ChargeStep, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> | PurchaseOutcome {
  switch (step.kind) {
    case 'settled':
      // Credited with the settle (chargeStep); a failed grant is 503 grant_failed (the same credential completes it).
      return step.credited === undefined ? purchaseAnswer(PURCHASE_ERRORS.grant_failed, surfaceOf(config)) : creditedAnswer(step.credited, config);
    case 'failed':
      return withFreshChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, now);
    case 'processing':
      return purchaseAnswer(PURCHASE_ERRORS.charge_processing, surfaceOf(config));
    case 'unknown':
      return purchaseAnswer(PURCHASE_ERRORS.charge_outcome_unknown, surfaceOf(config));
  }
}

/** Sends (or resumes) the charge (charge/step.ts) and turns the processor's word into the pack's answer. */
async function runCharge(
  record: ChargeRecord,
  send: () => ChargeReply | Promise<ChargeReply>,
  ports: PurchasePorts,
  config: PurchaseConfig,
  now: number,
): Promise<PurchaseOutcome> {
  return packChargeAnswer(await chargeStep(record, send, ports, now), ports, config, now);
}

/**
 * Section 3 row 1: a credential whose charge was already sent resumes the original charge; terms version,
 * switches, expiry and the other earlier checks are not asked again. Only the caller is: the credit goes to
 * the buyer the charge was sent for, so only that buyer may resume it.
 */
export async function resumeCharge(record: ChargeRecord, input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): Promise<PurchaseOutcome> {
  if (input.buyer?.agentUrl !== record.buyer) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(config));
  const grant = await ports.store.grantOf(record.challengeId);
  if (grant) return purchaseAnswer(PURCHASE_ERRORS.purchase_already_granted, surfaceOf(config), { receipt: receiptOf(grant) });
  if (record.state === 'failed') return withFreshChallenge(PAYMENT_PROBLEMS.verificationFailed, ports, config, input.now);
  if (record.state === 'settled') return grantSettled(record, record.chargeId ?? record.idempotencyKey, ports, config, input.now);
  return runCharge(record, resumeSend(record, ports), ports, config, input.now);
}
