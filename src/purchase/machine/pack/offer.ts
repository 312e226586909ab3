import { PAYMENT_METHODS, type PaymentMethodId } from '../../../spec/payments.js';
import type { ChallengeOffer } from '../ports/purchase.js';
import { acceptedMethods, type PurchaseRequest } from '../ports/outcome.js';
import { stablecoinOf, type PurchaseConfig, type PurchasePorts } from '../ports/purchase.js';
import { TEMPO_MEMO_BYTES } from '../tempo/quote.js';
import { cardPackOffer, tempoPackOffer } from '../offers.js';
import { paysByTransfer } from '../method.js';

/** The methods the deployment offers at /api/mpp/credits, card first: card always, tempo when configured. */
export function offeredMethods(ports: PurchasePorts, config: PurchaseConfig): PaymentMethodId[] {
  return stablecoinOf(ports, config) === undefined ? [PAYMENT_METHODS.stripe] : [PAYMENT_METHODS.stripe, PAYMENT_METHODS.tempo];
}

/**
 * The method a fresh challenge offers (a challenge names one method, 7.4): the first method of the buyer's
 * trusted Service-Payment-Methods (covered when signed) that the deployment offers, in the buyer's order;
 * card when the buyer names none; undefined when the list names no offered method (503 mpp_not_configured).
 */
export function chosenMethod(input: PurchaseRequest, ports: PurchasePorts, config: PurchaseConfig): PaymentMethodId | undefined {
  const offered = offeredMethods(ports, config);
  const listed = acceptedMethods(input, config.naming);
  if (listed === undefined) return PAYMENT_METHODS.stripe;
  return offered.find((method) => method === listed.find((m) => (offered as string[]).includes(m)));
}

/** The offer for a method: the card pack, or the stablecoin pack with a fresh memo from the injected randomness. */
export function packOfferFor(method: PaymentMethodId, ports: PurchasePorts, config: PurchaseConfig): ChallengeOffer {
  const stablecoin = paysByTransfer(method) ? stablecoinOf(ports, config) : undefined;
  if (stablecoin !== undefined) return tempoPackOffer(config, stablecoin.offer, ports.random.bytes(TEMPO_MEMO_BYTES));
  return cardPackOffer(config);
}
