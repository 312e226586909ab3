import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer, type PurchaseAnswer } from '../answers.js';
import { chargeRecordFor } from '../charge/record.js';
import { chargeStep } from '../charge/step.js';
import { MESSAGES } from '../messages.js';
import { surfaceOf } from '../ports/outcome.js';
import { sameTransfer, transferRecordFor } from '../transfer/record.js';
import { broadcastTransferStep } from '../transfer/step.js';
import type { PurchaseContext, SharedGuard } from './guard.js';
import { cardTokenOf, giveBack, FACTS, known, methodOf } from './run.js';
import { paysByTransfer } from '../method.js';

/** Opens the transfer record, claiming the challenge and the transaction hash; undefined once opened. */
async function openTransfer<O>(ctx: PurchaseContext<O>): Promise<O | PurchaseAnswer | undefined> {
  const issued = known(ctx.issued, FACTS.challenge);
  const transfer = known(ctx.transfer, FACTS.transfer);
  const stablecoin = known(ctx.stablecoin, FACTS.stablecoin).ports;
  const opened = await stablecoin.transfers.openTransfer(transferRecordFor(issued, known(ctx.payer, FACTS.payer), transfer, ctx.input.now));
  if (opened.opened) {
    ctx.transferRecord = opened.record;
    return undefined;
  }
  await giveBack(ctx);
  // Another presentation of this very credential opened it a moment ago: resume it.
  if (opened.clash === 'challenge' && sameTransfer(opened.existing, transfer.hash)) return ctx.surface.resumeTransfer(ctx, opened.existing, issued, stablecoin);
  if (opened.clash === 'challenge') await stablecoin.walletCaps.release(transfer.hash);
  if (opened.clash === 'hash') return ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.verificationFailed, MESSAGES.transactionUsed);
  return ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.invalidChallenge, MESSAGES.challengeTakenByTransaction);
}

/** Opens the charge record, claiming the challenge and the token; undefined once opened. */
async function openCharge<O>(ctx: PurchaseContext<O>): Promise<O | PurchaseAnswer | undefined> {
  const issued = known(ctx.issued, FACTS.challenge);
  const token = cardTokenOf(ctx);
  const opened = await ctx.ports.store.openCharge(chargeRecordFor(issued, known(ctx.payer, FACTS.payer), token, ctx.input.now));
  if (opened.opened) {
    ctx.charge = opened.record;
    return undefined;
  }
  await giveBack(ctx);
  if (opened.clash === 'token') return purchaseAnswer(PURCHASE_ERRORS.foreign_token, surfaceOf(ctx.config));
  // Another presentation of this very credential opened the charge a moment ago: resume it.
  if (opened.existing.token === token) return ctx.surface.resumeCharge(ctx, opened.existing, issued);
  return ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.invalidChallenge);
}

export const RECORD: SharedGuard = {
  name: 'record',
  codes: [PURCHASE_ERRORS.foreign_token, PAYMENT_PROBLEMS.invalidChallenge, PAYMENT_PROBLEMS.verificationFailed],
  why: 'The record is opened before anything is sent, so every charge sent and every transaction broadcast has one; opening it is atomic, so it also catches a token that already paid another purchase, a transaction already used, and this very credential racing its own first presentation (resumed).',
  run: async (ctx) => (paysByTransfer(methodOf(ctx)) ? openTransfer(ctx) : openCharge(ctx)),
};

export const CHARGE: SharedGuard = {
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
  run: async (ctx) => {
    if (paysByTransfer(methodOf(ctx))) {
      const step = await broadcastTransferStep(known(ctx.transferRecord, FACTS.transferRecord), known(ctx.stablecoin, FACTS.stablecoin).ports);
      return ctx.surface.afterTransfer(ctx, step);
    }
    const record = known(ctx.charge, FACTS.chargeRecord);
    return ctx.surface.afterCharge(
      ctx,
      await chargeStep(record, () => ctx.ports.processor.charge(record.token, record.price, record.idempotencyKey), ctx.ports),
    );
  },
};
