import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { codeAnswer } from '../ports/outcome.js';
import { countAgainstWalletCap, walletPlacementRefusal } from '../transfer/wallet.js';
import { sharedGuard } from './guard.js';
import { serialisePurchase } from './lock.js';
import { cardMarketRefusal, unreconciledAnswer } from './refusals.js';
import { giveBack } from './run.js';

export const UNRECONCILED = sharedGuard({
  name: 'unreconciled',
  codes: [PURCHASE_ERRORS.payment_unreconciled],
  why: "A card token whose payment matched nothing sold was refunded; it is refused with the refund state before its card is even looked at (the token's unreconciled payment as the same-credential guard read it).",
  needs: ['payment', 'recorded'],
  gives: [],
  run: async (ctx) => (ctx.payment.by === 'card' ? unreconciledAnswer(ctx.recorded.unreconciled, ctx.config) : undefined),
});

export const MARKET = sharedGuard({
  name: 'market',
  codes: [PURCHASE_ERRORS.purchases_unavailable_region, PURCHASE_ERRORS.stablecoin_location_unknown],
  why: "Closed for the payment instrument's market (7.4): the card's country, or the paying wallet's location, read before anything is held or charged.",
  needs: ['payment'],
  gives: [],
  run: async (ctx) => {
    const { payment } = ctx;
    if (payment.by === 'card') return cardMarketRefusal(payment.token, ctx.ports, ctx.config);
    return walletPlacementRefusal(payment.transfer, payment.stablecoin, ctx.config);
  },
});

export const LOCK = sharedGuard({
  name: 'lock',
  codes: [PURCHASE_ERRORS.purchase_lock_unavailable, PURCHASE_ERRORS.purchase_in_flight, PURCHASE_ERRORS.terms_record_failed],
  why: 'One purchase at a time per buyer, and the assent recorded, once every refusal that needs no lock has been asked; what follows runs under the lock until the payment is sent.',
  needs: ['payer', 'issued'],
  gives: [],
  run: async (ctx) => {
    const lock = await serialisePurchase({ input: ctx.input, buyer: ctx.payer, issued: ctx.issued }, ctx.ports, ctx.config);
    if (!lock.held) return lock.answer;
    ctx.held.push(lock.release);
    return undefined;
  },
});

export const WALLET_CAP = sharedGuard({
  name: 'wallet-cap',
  codes: [PURCHASE_ERRORS.wallet_daily_cap],
  why: "A transfer adds to its wallet's total for the day, so it is counted after every refusal that changes nothing, under the lock; at the limit nothing is broadcast (Retry-After until the next UTC day).",
  needs: ['payment', 'issued'],
  gives: [],
  run: async (ctx) => {
    const { payment } = ctx;
    if (payment.by === 'card') return undefined;
    const { stablecoin } = payment;
    const amount = ctx.surface.walletCapAmount(ctx.issued, stablecoin);
    const capped = await countAgainstWalletCap(payment.transfer, amount, stablecoin.offer, stablecoin.ports, ctx.input.now);
    if (capped === undefined) return undefined;
    await giveBack(ctx);
    return codeAnswer(PURCHASE_ERRORS.wallet_daily_cap, ctx.config, { retryAfterSeconds: capped });
  },
});
