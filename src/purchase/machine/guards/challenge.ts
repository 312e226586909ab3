import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { tokenOf } from '../../wire/credential.js';
import { MESSAGES } from '../messages.js';
import { readTempoPayload } from '../tempo/payload.js';
import { checkTempoTransaction } from '../tempo/transaction-check.js';
import { quoteOf } from '../transfer/wallet.js';
import { given } from './facts.js';
import { sharedGuard } from './guard.js';
import { termsRefusal } from './terms.js';

export const EXPIRY = sharedGuard({
  name: 'expiry',
  codes: [PAYMENT_PROBLEMS.paymentExpired],
  why: 'A challenge is honoured for 300 seconds (section 8); a payment already sent behind an older one resumed above, so what is refused here was never paid.',
  needs: ['issued'],
  gives: [],
  run: async (ctx) => (ctx.input.now > ctx.issued.expiresAt ? ctx.surface.fresh(PAYMENT_PROBLEMS.paymentExpired, { issued: ctx.issued }) : undefined),
});

export const PAYLOAD = sharedGuard({
  name: 'payload',
  codes: [PURCHASE_ERRORS['invalid-payload']],
  why: 'What pays must be in the payload before terms or payment are weighed: a card credential carries the shared payment token; a stablecoin one an unbroadcast transaction (never a hash, never a proof).',
  needs: ['credential', 'rail', 'issued'],
  gives: ['payload'],
  run: async (ctx) => {
    const { credential, rail, issued } = ctx;
    if (rail.by === 'stablecoin') {
      const payload = readTempoPayload(credential.payload);
      if (payload.kind !== 'transaction')
        return ctx.surface.fresh(PURCHASE_ERRORS['invalid-payload'], { issued, description: MESSAGES.transferPayloadNotAdmitted(payload.detail) });
      return given({ payload: { by: rail.by, stablecoin: rail.stablecoin, serialized: payload.serialized } });
    }
    const token = tokenOf(credential);
    if (token === undefined) return ctx.surface.fresh(PURCHASE_ERRORS['invalid-payload'], { description: MESSAGES.cardPayloadWithoutToken });
    return given({ payload: { by: rail.by, token } });
  },
});

export const TERMS = sharedGuard({
  name: 'terms',
  codes: [PURCHASE_ERRORS['terms-acceptance-required'], PURCHASE_ERRORS['terms-version-stale']],
  why: 'Paying accepts the terms (7.4): a paid retry must carry assent to the current version, covered when signed, under a challenge issued with it; the last refusal that rides with a fresh challenge, before anything is counted or held.',
  needs: ['issued'],
  gives: [],
  run: async (ctx) => {
    const refusal = termsRefusal(ctx.input, ctx.issued, ctx.config);
    return refusal === undefined ? undefined : ctx.surface.fresh(refusal, { issued: ctx.issued });
  },
});

export const TRANSACTION = sharedGuard({
  name: 'transaction',
  codes: [PAYMENT_PROBLEMS.invalidChallenge, PAYMENT_PROBLEMS.verificationFailed],
  why: 'A card pays by its token as the payload carries it; a stablecoin transaction must pay the quote exactly, checked in full before anything is broadcast, and a mismatch is never broadcast.',
  needs: ['issued', 'payload'],
  gives: ['payment'],
  run: async (ctx) => {
    const { issued, payload } = ctx;
    if (payload.by === 'card') return given({ payment: payload });
    const quote = quoteOf(issued);
    if (quote === undefined) return ctx.surface.fresh(PAYMENT_PROBLEMS.invalidChallenge, { issued });
    const check = await checkTempoTransaction(payload.serialized, quote, { expiresAt: issued.expiresAt, now: ctx.input.now });
    if (!check.ok)
      return ctx.surface.fresh(PAYMENT_PROBLEMS.verificationFailed, { issued, description: MESSAGES.transactionDoesNotPay(check.mismatch, check.detail) });
    // Whether the transaction is already recorded is the record guard's atomic open to say: this very credential, racing its
    // own first presentation, resumes there; a transaction of another challenge cannot pay this quote (each memo is drawn for
    // its challenge), and would be refused there all the same.
    return given({ payment: { by: payload.by, stablecoin: payload.stablecoin, transfer: check.transfer } });
  },
});
