import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { codeAnswer } from '../ports/outcome.js';
import { countAgainstWalletCap, walletPlacementRefusal } from '../transfer/wallet.js';
import type { PurchaseContext, SharedGuard } from './guard.js';
import { cardTokenOf, giveBack, FACTS, known, methodOf } from './run.js';
import { serialisePurchase } from './lock.js';
import { cardMarketRefusal, unreconciledRefusal } from './refusals.js';
import { CARD_METHODS, TRANSFER_METHODS, paysByTransfer } from '../method.js';

/** The card token or the transaction hash that pays: what the lock and the records are keyed on besides the challenge. */
function paymentOf(ctx: PurchaseContext<unknown>): string {
  return paysByTransfer(methodOf(ctx)) ? known(ctx.transfer, FACTS.transfer).hash : cardTokenOf(ctx);
}

export const UNRECONCILED: SharedGuard = {
  name: 'unreconciled',
  codes: [PURCHASE_ERRORS.payment_unreconciled],
  why: 'A token whose payment matched nothing sold was refunded; it is refused with the refund state before its card is even looked at.',
  methods: CARD_METHODS,
  run: async (ctx) => unreconciledRefusal(paymentOf(ctx), ctx.ports, ctx.config),
};

export const MARKET: SharedGuard = {
  name: 'market',
  codes: [PURCHASE_ERRORS.purchases_unavailable_region, PURCHASE_ERRORS.stablecoin_location_unknown],
  why: "Closed for the payment instrument's market (7.4): the card's country, or the paying wallet's location, read before anything is held or charged.",
  run: async (ctx) => {
    if (!paysByTransfer(methodOf(ctx))) return cardMarketRefusal(paymentOf(ctx), ctx.ports, ctx.config);
    return walletPlacementRefusal(known(ctx.transfer, FACTS.transfer), known(ctx.stablecoin, FACTS.stablecoin), ctx.config);
  },
};

export const LOCK: SharedGuard = {
  name: 'lock',
  codes: [PURCHASE_ERRORS.purchase_lock_unavailable, PURCHASE_ERRORS.purchase_in_flight, PURCHASE_ERRORS.terms_record_failed],
  why: 'One purchase at a time per buyer, and the assent recorded, once every refusal that needs no lock has been asked; what follows runs under the lock until the payment is sent.',
  run: async (ctx) => {
    const candidate = { input: ctx.input, buyer: known(ctx.payer, FACTS.payer), token: paymentOf(ctx), issued: known(ctx.issued, FACTS.challenge) };
    const lock = await serialisePurchase(candidate, ctx.ports, ctx.config);
    if (!lock.held) return lock.answer;
    ctx.held.push(lock.release);
    return undefined;
  },
};

export const WALLET_CAP: SharedGuard = {
  name: 'wallet-cap',
  codes: [PURCHASE_ERRORS.wallet_daily_cap],
  why: "Counting adds to the wallet's total for the day, so it comes after every refusal that changes nothing, under the lock; at the limit nothing is broadcast (Retry-After until the next UTC day).",
  methods: TRANSFER_METHODS,
  run: async (ctx) => {
    const stablecoin = known(ctx.stablecoin, FACTS.stablecoin);
    const capped = await countAgainstWalletCap(
      known(ctx.transfer, FACTS.transfer),
      ctx.surface.walletCapAmount(ctx),
      stablecoin.offer,
      stablecoin.ports,
      ctx.input.now,
    );
    if (capped === undefined) return undefined;
    await giveBack(ctx);
    return codeAnswer(PURCHASE_ERRORS.wallet_daily_cap, ctx.config, { retryAfterSeconds: capped });
  },
};
