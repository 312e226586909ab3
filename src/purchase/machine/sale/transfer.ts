import { PAYMENT_METHODS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { codeAnswer } from '../ports/outcome.js';
import type { IssuedChallenge } from '../ports/purchase.js';
import type { StablecoinPorts, TransferRecord } from '../ports/stablecoin.js';
import { transferGrant } from '../transfer/record.js';
import { resumeTransferStep, type TransferStep } from '../transfer/step.js';
import type { SaleOutcome } from './answer.js';
import { freshSaleChallenge } from './offer.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { declineSale, resumedSaleRefusal } from './record.js';
import { creditAndServe } from './serve.js';

/**
 * Section 3 row 1: the same credential resumes its sale; no switch, terms version, price, cap or location is
 * asked again. Only the agent the challenge names may resume a sale for it.
 */
export async function resumeSaleTransfer(
  record: TransferRecord,
  issued: IssuedChallenge,
  input: SaleRequest,
  stablecoin: StablecoinPorts,
  ports: SalePorts,
  config: SaleConfig,
): Promise<SaleOutcome> {
  const refused = await resumedSaleRefusal(issued, record.buyer, input, ports, config);
  if (refused !== undefined) return refused;
  return saleTransferAnswer(await resumeTransferStep(record, stablecoin, input.now), input, ports, config);
}

/** The network's word on the transfer, turned into the call's answer; a transfer that paid nothing gives its caps back once. */
export async function saleTransferAnswer(step: TransferStep, input: SaleRequest, ports: SalePorts, config: SaleConfig): Promise<SaleOutcome> {
  switch (step.kind) {
    case 'settled':
      return creditAndServe(transferGrant(step.record, input.now), input, ports, config);
    case 'failed':
      await declineSale(step.record.challengeId, ports);
      return freshSaleChallenge(step.refusal, input, ports, config, step.description, PAYMENT_METHODS.tempo);
    case 'unavailable':
      return codeAnswer(PURCHASE_ERRORS.tempo_unavailable, config);
    case 'pending':
      return codeAnswer(PURCHASE_ERRORS.tempo_settlement_pending, config);
  }
}
