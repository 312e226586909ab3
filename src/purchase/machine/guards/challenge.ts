import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { tokenOf } from '../../wire/credential.js';
import { MESSAGES } from '../messages.js';
import { readTempoPayload } from '../tempo/payload.js';
import { checkTempoTransaction } from '../tempo/transaction-check.js';
import { quoteOf } from '../transfer/wallet.js';
import type { SharedGuard } from './guard.js';
import { FACTS, known } from './run.js';
import { termsRefusal } from './terms.js';
import { TRANSFER_METHODS, paysByTransfer } from '../method.js';

export const EXPIRY: SharedGuard = {
  name: 'expiry',
  codes: [PAYMENT_PROBLEMS.paymentExpired],
  why: 'A challenge is honoured for 300 seconds (section 8); a payment already sent behind an older one resumed above, so what is refused here was never paid.',
  run: async (ctx) => (ctx.input.now > known(ctx.issued, FACTS.challenge).expiresAt ? ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.paymentExpired) : undefined),
};

export const PAYLOAD: SharedGuard = {
  name: 'payload',
  codes: [PURCHASE_ERRORS['invalid-payload']],
  why: 'What pays must be in the payload before terms or payment are weighed: a card credential carries the shared payment token; a stablecoin one an unbroadcast transaction (never a hash, never a proof).',
  run: async (ctx) => {
    const credential = known(ctx.credential, FACTS.credential);
    if (paysByTransfer(credential.challenge.method)) {
      const payload = readTempoPayload(credential.payload);
      if (payload.kind !== 'transaction')
        return ctx.surface.fresh(ctx, PURCHASE_ERRORS['invalid-payload'], MESSAGES.transferPayloadNotAdmitted(payload.detail));
      ctx.serialized = payload.serialized;
      return undefined;
    }
    return tokenOf(credential) === undefined ? ctx.surface.fresh(ctx, PURCHASE_ERRORS['invalid-payload'], MESSAGES.cardPayloadWithoutToken) : undefined;
  },
};

export const TERMS: SharedGuard = {
  name: 'terms',
  codes: [PURCHASE_ERRORS['terms-acceptance-required'], PURCHASE_ERRORS['terms-version-stale']],
  why: 'Paying accepts the terms (7.4): a paid retry must carry assent to the current version, covered when signed, under a challenge issued with it; the last refusal that rides with a fresh challenge, before anything is counted or held.',
  run: async (ctx) => {
    const refusal = termsRefusal(ctx.input, known(ctx.issued, FACTS.challenge), ctx.config);
    return refusal === undefined ? undefined : ctx.surface.fresh(ctx, refusal);
  },
};

export const TRANSACTION: SharedGuard = {
  name: 'transaction',
  codes: [PAYMENT_PROBLEMS.invalidChallenge, PAYMENT_PROBLEMS.verificationFailed],
  why: 'The transaction must pay the quote exactly; it is checked in full before anything is broadcast, and a mismatch is never broadcast.',
  methods: TRANSFER_METHODS,
  run: async (ctx) => {
    const issued = known(ctx.issued, FACTS.challenge);
    const quote = quoteOf(issued);
    if (quote === undefined) return ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.invalidChallenge);
    const check = await checkTempoTransaction(known(ctx.serialized, FACTS.transaction), quote, { expiresAt: issued.expiresAt, now: ctx.input.now });
    if (!check.ok) return ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.verificationFailed, MESSAGES.transactionDoesNotPay(check.mismatch, check.detail));
    // Whether the transaction is already recorded is the record guard's atomic open to say: this very credential, racing its
    // own first presentation, resumes there; a transaction of another challenge cannot pay this quote (each memo is drawn for
    // its challenge), and would be refused there all the same.
    ctx.transfer = check.transfer;
    return undefined;
  },
};
