import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, type PurchaseAnswer } from '../answers.js';
import { chargeRecordFor } from '../charge/record.js';
import { chargeStep } from '../charge/step.js';
import { MESSAGES } from '../messages.js';
import { surfaceOf } from '../ports/outcome.js';
import type { IssuedChallenge } from '../ports/purchase.js';
import { sameTransfer, transferRecordFor } from '../transfer/record.js';
import { broadcastTransferStep } from '../transfer/step.js';
import { given, type Given, type Opened, type Payment } from './facts.js';
import { sharedGuard, type PurchaseBase } from './guard.js';
import { giveBack } from './run.js';

type Opening<O> = Promise<O | PurchaseAnswer | Given<{ opened: Opened }>>;

/** Opens the transfer record, claiming the challenge and the transaction hash. */
async function openTransfer<O>(ctx: PurchaseBase<O>, issued: IssuedChallenge, payer: string, payment: Payment & { by: 'stablecoin' }): Opening<O> {
  const { transfer, stablecoin } = payment;
  const opened = await stablecoin.ports.transfers.openTransfer(transferRecordFor(issued, payer, transfer, ctx.input.now));
  if (opened.opened) return given({ opened: { by: payment.by, stablecoin, record: opened.record } });
  await giveBack(ctx);
  // Another presentation of this very credential opened it a moment ago: resume it.
  if (opened.clash === 'challenge' && sameTransfer(opened.existing, transfer.hash))
    return ctx.surface.resumeTransfer(ctx, opened.existing, issued, stablecoin.ports);
  if (opened.clash === 'challenge') await stablecoin.ports.walletCaps.release(transfer.hash);
  if (opened.clash === 'hash') return ctx.surface.fresh(PAYMENT_PROBLEMS.verificationFailed, { issued, description: MESSAGES.transactionUsed });
  return ctx.surface.fresh(PAYMENT_PROBLEMS.invalidChallenge, { issued, description: MESSAGES.challengeTakenByTransaction });
}

/** Opens the charge record, claiming the challenge and the token. */
async function openCharge<O>(ctx: PurchaseBase<O>, issued: IssuedChallenge, payer: string, token: string): Opening<O> {
  const opened = await ctx.ports.store.openCharge(chargeRecordFor(issued, payer, token, ctx.input.now));
  if (opened.opened) return given({ opened: { by: 'card', charge: opened.record } });
  await giveBack(ctx);
  if (opened.clash === 'token') return purchaseAnswer(PURCHASE_ERRORS.foreign_token, surfaceOf(ctx.config));
  // Another presentation of this very credential opened the charge a moment ago: resume it.
  if (opened.existing.token === token) return ctx.surface.resumeCharge(ctx, opened.existing, issued);
  return ctx.surface.fresh(PAYMENT_PROBLEMS.invalidChallenge);
}

export const RECORD = sharedGuard({
  name: 'record',
  codes: [PURCHASE_ERRORS.foreign_token, PAYMENT_PROBLEMS.invalidChallenge, PAYMENT_PROBLEMS.verificationFailed],
  why: 'The record is opened before anything is sent, so every charge sent and every transaction broadcast has one; opening it is atomic, so it also catches a token that already paid another purchase, a transaction already used, and this very credential racing its own first presentation (resumed).',
  needs: ['issued', 'payer', 'payment'],
  gives: ['opened'],
  run: async (ctx) => {
    const { issued, payer, payment } = ctx;
    return payment.by === 'card' ? openCharge(ctx, issued, payer, payment.token) : openTransfer(ctx, issued, payer, payment);
  },
});

export const CHARGE = sharedGuard({
  name: 'charge',
  codes: [
    PAYMENT_PROBLEMS.verificationFailed,
    PURCHASE_ERRORS.charge_processing,
    PURCHASE_ERRORS.charge_outcome_unknown,
    PURCHASE_ERRORS.tempo_unavailable,
    PURCHASE_ERRORS.tempo_settlement_pending,
    PURCHASE_ERRORS.grant_failed,
    PURCHASE_ERRORS.funding_failed,
    PURCHASE_ERRORS.sale_serve_pending,
    PURCHASE_ERRORS.call_refunded,
  ],
  why: 'Last, and always answering: the card charge is sent (or the transaction broadcast) and the processor or network outcome becomes the answer of what this surface sells.',
  needs: ['opened'],
  gives: [],
  run: async (ctx) => {
    const { opened } = ctx;
    if (opened.by === 'stablecoin') return ctx.surface.afterTransfer(ctx, await broadcastTransferStep(opened.record, opened.stablecoin.ports));
    const record = opened.charge;
    return ctx.surface.afterCharge(
      ctx,
      await chargeStep(record, () => ctx.ports.processor.charge(record.token, record.price, record.idempotencyKey), ctx.ports, ctx.input.now),
    );
  },
});
