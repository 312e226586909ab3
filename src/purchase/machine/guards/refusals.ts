import { HEADERS } from '../../../spec/headers.js';
import { deployedHeader } from '../../../spec/naming.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, type PurchaseAnswer } from '../answers.js';
import { surfaceOf, trustedHeader, type PurchaseRequest } from '../ports/outcome.js';
import type { IssuedChallenge, PurchaseConfig, PurchasePorts, UnreconciledPayment } from '../ports/purchase.js';

/** What the guards before a payment look at: who pays, under which challenge. */
export interface ChargeCandidate {
  readonly input: PurchaseRequest;
  readonly buyer: string;
  readonly issued: IssuedChallenge;
}

/** 7.4 payment_unreconciled: this token already paid and was refunded because the payment matched nothing sold. */
export async function unreconciledRefusal(token: string, ports: Pick<PurchasePorts, 'store'>, config: PurchaseConfig): Promise<PurchaseAnswer | undefined> {
  return unreconciledAnswer(await ports.store.unreconciledOf(token), config);
}

/** unreconciledRefusal of the token's unreconciled payment as already read (undefined when it has none). */
export function unreconciledAnswer(unreconciled: UnreconciledPayment | undefined, config: PurchaseConfig): PurchaseAnswer | undefined {
  return unreconciled === undefined ? undefined : purchaseAnswer(PURCHASE_ERRORS.payment_unreconciled, surfaceOf(config), { refund: unreconciled.refund });
}

/**
 * 7.4 purchases_unavailable_region for a card: its market is closed, or its country cannot be established
 * (whether or not any market is closed: the row names both conditions).
 */
export async function cardMarketRefusal(token: string, ports: Pick<PurchasePorts, 'processor'>, config: PurchaseConfig): Promise<PurchaseAnswer | undefined> {
  const country = await ports.processor.instrumentCountry(token);
  if (country === undefined || (config.closedMarkets ?? []).includes(country.toUpperCase()))
    return purchaseAnswer(PURCHASE_ERRORS.purchases_unavailable_region, surfaceOf(config));
  return undefined;
}

/**
 * 7.4 ownerless_balance_cap, whatever the method: an agent without an owner already holds the ownerless limit,
 * and the request does not claim it with an operator key (X-Service-Owner-Key, trusted only when covered on a
 * signed request). Undefined when the purchase may go on.
 */
export async function ownerlessCapRefusal(
  candidate: Pick<ChargeCandidate, 'input' | 'buyer'>,
  ports: Pick<PurchasePorts, 'buyers' | 'store'>,
  config: PurchaseConfig,
): Promise<PurchaseAnswer | undefined> {
  if (config.ownerlessBalanceCapNano === undefined || (await ports.buyers.hasOwner(candidate.buyer))) return undefined;
  const balance = BigInt(await ports.store.balance(candidate.buyer));
  const claim = trustedHeader(candidate.input, deployedHeader(HEADERS.ownerKey, config.naming));
  const claimed = claim !== undefined && (config.ownerKeys ?? []).includes(claim.trim());
  return !claimed && balance >= BigInt(config.ownerlessBalanceCapNano) ? purchaseAnswer(PURCHASE_ERRORS.ownerless_balance_cap, surfaceOf(config)) : undefined;
}
