import { PAYMENT_METHODS, PURCHASE_KINDS } from '../../spec/payments.js';
import { PLATFORM_ROUTES } from '../../spec/wire.js';
import type { JsonObject } from '../wire/json.js';
import { STRIPE_PAYMENT_METHOD_TYPE_CARD, STRIPE_REQUEST_MEMBERS } from '../wire/wire.js';
import type { ChallengeOffer, PurchaseConfig } from './ports/purchase.js';
import type { StablecoinOffer } from './ports/stablecoin.js';
import { memoOf, tempoChargeRequest } from './tempo/quote.js';

/*
 * The offers of the pack POST /api/mpp/credits sells, one per method: below the issuing of challenges (issue.ts,
 * whose default offer is the card pack) and the surfaces that choose among them (pack/offer.ts, sale/offer.ts).
 */

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
