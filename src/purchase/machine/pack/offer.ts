import { PAYMENT_METHODS, PURCHASE_KINDS, type PaymentMethodId } from '../../../spec/payments.js';
import { PLATFORM_ROUTES } from '../../../spec/wire.js';
import type { ChallengeOffer } from '../ports/purchase.js';
import type { JsonObject } from '../../wire/json.js';
import { acceptedMethods, type PurchaseRequest } from '../ports/outcome.js';
import { stablecoinOf, type PurchaseConfig, type PurchasePorts } from '../ports/purchase.js';
import type { StablecoinOffer } from '../ports/stablecoin.js';
import { memoOf, TEMPO_MEMO_BYTES, tempoChargeRequest } from '../tempo/quote.js';
import { STRIPE_PAYMENT_METHOD_TYPE_CARD, STRIPE_REQUEST_MEMBERS } from '../../wire/wire.js';
import { paysByTransfer } from '../method.js';

/** The card (`stripe`) offer of the pack POST /api/mpp/credits sells. */
export function cardPackOffer(config: PurchaseConfig): ChallengeOffer {
  const { pack } = config;
  const methodDetails: JsonObject = {
    ...(pack.networkId === undefined ? {} : { [STRIPE_REQUEST_MEMBERS.networkId]: pack.networkId }),
    [STRIPE_REQUEST_MEMBERS.paymentMethodTypes]: [STRIPE_PAYMENT_METHOD_TYPE_CARD],
  };
  return {
    method: PAYMENT_METHODS.stripe,
    kind: PURCHASE_KINDS.pack,
    origin: PLATFORM_ROUTES.mppCredits,
    request: {
      [STRIPE_REQUEST_MEMBERS.amount]: pack.price.amount,
      [STRIPE_REQUEST_MEMBERS.currency]: pack.price.currency,
      [STRIPE_REQUEST_MEMBERS.methodDetails]: methodDetails,
    },
    packId: pack.packId,
    price: pack.price,
    creditNano: pack.creditNano,
  };
}

/** The stablecoin (`tempo`) offer of the pack: its price in base units, the token, the deposit address and a memo picked for this challenge. */
export function tempoPackOffer(config: PurchaseConfig, stablecoin: StablecoinOffer, memoBytes: Uint8Array): ChallengeOffer {
  const price = { amount: stablecoin.amount, currency: stablecoin.token };
  return {
    method: PAYMENT_METHODS.tempo,
    kind: PURCHASE_KINDS.pack,
    origin: PLATFORM_ROUTES.mppCredits,
    request: tempoChargeRequest({ ...price, recipient: stablecoin.depositAddress, chainId: stablecoin.chainId, memo: memoOf(memoBytes) }),
    packId: config.pack.packId,
    price,
    creditNano: config.pack.creditNano,
  };
}

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
