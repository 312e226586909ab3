import { PAYMENT_METHODS, type PaymentProblemRecord } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../../spec/types.js';
import type { PurchaseAnswer } from '../answers.js';
import { grantedAnswer, receiptOf } from '../granted.js';
import { withFreshChallenge } from '../issue.js';
import { codeAnswer, type PurchaseOutcome, type PurchaseRequest } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import type { StablecoinPorts, TransferRecord } from '../ports/stablecoin.js';
import { transferGrant } from '../transfer/record.js';
import { resumeTransferStep, type TransferStep } from '../transfer/step.js';
import { packOfferFor } from './offer.js';

/** A 402 with a fresh stablecoin challenge (a card one if the deployment stopped selling transfers). */
export function freshTransferChallenge(
  refusal: PaymentProblemRecord | PurchaseErrorRecord,
  ports: PurchasePorts,
  config: PurchaseConfig,
  now: number,
  description?: string,
): Promise<PurchaseAnswer> {
  return withFreshChallenge(refusal, ports, config, now, description, packOfferFor(PAYMENT_METHODS.tempo, ports, config));
}

/** Credits the pack once for a settled transfer. A store fault is 503 grant_failed. */
async function grantTransfer(record: TransferRecord, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> {
  try {
    const result = await ports.store.grant(transferGrant(record, now));
    return grantedAnswer(result.grant, result.balanceNano, config);
  } catch {
    return codeAnswer(PURCHASE_ERRORS.grant_failed, config);
  }
}

/** The pack's answer to a transfer step: settled credits the pack; failed a fresh stablecoin challenge; the two 503s. */
export function packTransferAnswer(step: TransferStep, ports: PurchasePorts, config: PurchaseConfig, now: number): Promise<PurchaseOutcome> | PurchaseOutcome {
  switch (step.kind) {
    case 'settled':
      return grantTransfer(step.record, ports, config, now);
    case 'failed':
      return freshTransferChallenge(step.refusal, ports, config, now, step.description);
    case 'unavailable':
      return codeAnswer(PURCHASE_ERRORS.tempo_unavailable, config);
    case 'pending':
      return codeAnswer(PURCHASE_ERRORS.tempo_settlement_pending, config);
  }
}

/**
 * Section 3 row 1 for a pack's transfer: the same credential resumes the transfer recorded under its challenge;
 * terms, switches, expiry, location and caps are not asked again. Only the buyer it was opened for may resume it.
 */
export async function resumeTransfer(
  record: TransferRecord,
  input: PurchaseRequest,
  stablecoin: StablecoinPorts,
  ports: PurchasePorts,
  config: PurchaseConfig,
): Promise<PurchaseOutcome> {
  if (input.buyer?.agentUrl !== record.buyer) return codeAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, config);
  const grant = await ports.store.grantOf(record.challengeId);
  if (grant) return codeAnswer(PURCHASE_ERRORS.purchase_already_granted, config, { receipt: receiptOf(grant) });
  return packTransferAnswer(await resumeTransferStep(record, stablecoin, input.now), ports, config, input.now);
}
