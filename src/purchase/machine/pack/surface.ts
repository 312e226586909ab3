import { PURCHASE_KINDS } from '../../../spec/payments.js';
import type { PurchaseSurface } from '../guards/guard.js';
import { withFreshChallenge } from '../issue.js';
import { paysByTransfer } from '../method.js';
import type { PurchaseOutcome, PurchaseRequest } from '../ports/outcome.js';
import type { PurchaseConfig, PurchasePorts } from '../ports/purchase.js';
import type { PresentedCredential } from '../presented.js';
import { packChargeAnswer, resumeCharge } from './charge.js';
import { chosenMethod, offeredMethods, packOfferFor } from './offer.js';
import { freshTransferChallenge, packTransferAnswer, resumeTransfer } from './transfer.js';

/**
 * The pack at POST /api/mpp/credits as the shared guards see it: it sells a pack challenge from whatever
 * resource issued it, answers a paid pack with 200, and offers a refused credential its own method again.
 */
export function packSurface(
  input: PurchaseRequest,
  presented: PresentedCredential,
  ports: PurchasePorts,
  config: PurchaseConfig,
): PurchaseSurface<PurchaseOutcome> {
  return {
    methods: () => offeredMethods(ports, config),
    offer: () => {
      const method = chosenMethod(input, ports, config);
      return method === undefined ? undefined : packOfferFor(method, ports, config);
    },
    fresh: (refusal, options = {}) =>
      paysByTransfer(presented.credential?.challenge.method)
        ? freshTransferChallenge(refusal, ports, config, input.now, options.description)
        : withFreshChallenge(refusal, ports, config, input.now, options.description),
    sells: (issued) => issued.kind === PURCHASE_KINDS.pack,
    resumeCharge: (_ctx, record) => resumeCharge(record, input, ports, config),
    resumeTransfer: (_ctx, record, _issued, stablecoin) => resumeTransfer(record, input, stablecoin, ports, config),
    afterCharge: async (_ctx, step) => packChargeAnswer(step, ports, config, input.now),
    afterTransfer: async (_ctx, step) => packTransferAnswer(step, ports, config, input.now),
    // The pack's price now, as the pack has always counted it (not the challenge's quote).
    walletCapAmount: (_issued, stablecoin) => stablecoin.offer.amount,
  };
}
