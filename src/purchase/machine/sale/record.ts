import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, type PurchaseAnswer } from '../answers.js';
import { surfaceOf } from '../ports/outcome.js';
import type { IssuedChallenge } from '../ports/purchase.js';
import { settledAgainAnswer } from './answer.js';
import { accountOf } from './offer.js';
import type { SaleConfig, SalePorts, SaleRecord, SaleRequest } from './ports.js';
import { UNIDENTIFIED_PAYER_PREFIX } from './wire.js';

/** Whose balance a call's purchase credits: the account the challenge names, or a payer of its own for an unidentified buyer. */
export function payerOf(issued: IssuedChallenge, account: string | null): string {
  return account ?? UNIDENTIFIED_PAYER_PREFIX + issued.id;
}

/** The sale of one call, opened with the payment (and the caps it counted on) before the payment is sent. */
export function saleOf(
  issued: IssuedChallenge,
  account: string | null,
  payer: string,
  now: number,
  caps: Pick<SaleRecord, 'caps' | 'capDay'> = {},
): SaleRecord {
  return { challengeId: issued.id, resource: issued.origin, account, payer, priceNano: issued.creditNano, state: 'open', ...caps, openedAt: now };
}

/**
 * Section 3 row 1 for a sale: only the agent the challenge names may resume it, and a sale that moved past open
 * answers its 409. Undefined when the payment may be resumed. The sale is opened with the payment; it is opened
 * here when a fault came between the two (no caps to give back then).
 */
export async function resumedSaleRefusal(
  issued: IssuedChallenge,
  payer: string,
  input: SaleRequest,
  ports: SalePorts,
  config: SaleConfig,
): Promise<PurchaseAnswer | undefined> {
  const account = accountOf(issued);
  if (account !== null && input.buyer?.agentUrl !== account) return purchaseAnswer(PURCHASE_ERRORS.terms_acceptance_unauthenticated, surfaceOf(config));
  const sale = await ports.sales.open(saleOf(issued, account, payer, input.now));
  if (sale.state !== 'open' && sale.state !== 'declined') return settledAgainAnswer(sale.state, await ports.store.grantOf(issued.id), config);
  return undefined;
}

/** A payment that captured nothing: the sale is declined and gives its caps back, once. */
export async function declineSale(challengeId: string, ports: SalePorts): Promise<void> {
  const declined = await ports.sales.move(challengeId, ['open'], 'declined');
  const { caps, capDay } = declined.record;
  if (declined.moved && caps !== undefined && capDay !== undefined) await ports.caps.release(caps, capDay);
}
