import { PAYMENT_METHOD_OF } from '../../../spec/payments.js';
import type { PurchaseSurface } from '../guards/guard.js';
import { releaseHeld } from '../guards/run.js';
import { paysByTransfer } from '../method.js';
import type { PresentedCredential } from '../presented.js';
import type { SaleOutcome } from './answer.js';
import { resumeSale, saleChargeAnswer } from './charge.js';
import { callMethodsOffered, freshSaleChallenge, isCallHere, offerFor } from './offer.js';
import type { SaleConfig, SalePorts, SaleRequest } from './ports.js';
import { resumeSaleTransfer, saleTransferAnswer } from './transfer.js';

/**
 * A priced resource's single call as the shared guards see it: it sells only its own call challenges, serves
 * the call once paid (after letting go of the buyer's lock: the call may take long), and offers a refused
 * stablecoin credential the stablecoin again once its challenge is known to be this call's; any other refusal
 * gets the offer the request would get without a credential.
 */
export function saleSurface(input: SaleRequest, presented: PresentedCredential, ports: SalePorts, config: SaleConfig): PurchaseSurface<SaleOutcome> {
  return {
    methods: () => callMethodsOffered(config, ports),
    offer: () => offerFor(input, config, ports),
    fresh: (refusal, options = {}) =>
      freshSaleChallenge(
        refusal,
        input,
        ports,
        config,
        options.description,
        options.issued !== undefined && paysByTransfer(presented.credential?.challenge.method) ? PAYMENT_METHOD_OF.stablecoin : undefined,
      ),
    sells: (issued) => isCallHere(issued, config),
    resumeCharge: (_ctx, record, issued) => resumeSale(record, issued, input, ports, config),
    resumeTransfer: (_ctx, record, issued, stablecoin) => resumeSaleTransfer(record, issued, input, stablecoin, ports, config),
    afterCharge: async (ctx, step) => {
      await releaseHeld(ctx);
      return saleChargeAnswer(step, input, ports, config);
    },
    afterTransfer: async (ctx, step) => {
      await releaseHeld(ctx);
      return saleTransferAnswer(step, input, ports, config);
    },
    walletCapAmount: (issued) => issued.price.amount,
  };
}
