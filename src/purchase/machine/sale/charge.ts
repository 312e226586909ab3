import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { chargeGrant } from '../charge/record.js';
import { chargeStep, resumeSend, type ChargeStep } from '../charge/step.js';
import { codeAnswer } from '../ports/outcome.js';
import type { ChargeRecord, IssuedChallenge } from '../ports/purchase.js';
import type { SaleOutcome } from './answer.js';
import { freshSaleChallenge } from './offer.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { declineSale, resumedSaleRefusal } from './record.js';
import { creditAndServe, serveCredited } from './serve.js';

/**
 * Section 3 row 1: the same credential resumes its sale; no switch, terms version, price, cap or market check
 * is asked again. Only the agent the challenge names may resume a sale for it.
 */
export async function resumeSale(
  record: ChargeRecord,
  issued: IssuedChallenge,
  input: SaleRequest,
  ports: SalePorts,
  config: SaleConfig,
): Promise<SaleOutcome> {
  const refused = await resumedSaleRefusal(issued, record.buyer, input, ports, config);
  if (refused !== undefined) return refused;
  if (record.state === 'failed') return freshSaleChallenge(PAYMENT_PROBLEMS.verificationFailed, input, ports, config);
  if (record.state === 'settled') return creditAndServe(chargeGrant(record, record.chargeId ?? record.idempotencyKey, input.now), input, ports, config);
  return saleChargeAnswer(await chargeStep(record, resumeSend(record, ports), ports, input.now), input, ports, config);
}

/** The processor's word on the charge, turned into the call's answer; a charge that captured nothing gives its caps back once. */
export async function saleChargeAnswer(step: ChargeStep, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  switch (step.kind) {
    case 'settled':
      return serveCredited(step.record.challengeId, step.credited, input, ports, config);
    case 'failed':
      await declineSale(step.record.challengeId, ports);
      return freshSaleChallenge(PAYMENT_PROBLEMS.verificationFailed, input, ports, config);
    case 'processing':
      return codeAnswer(PURCHASE_ERRORS.charge_processing, config);
    case 'unknown':
      return codeAnswer(PURCHASE_ERRORS.charge_outcome_unknown, config);
  }
}
