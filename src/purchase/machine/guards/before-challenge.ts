import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { withFreshChallenge } from '../issue.js';
import { MESSAGES } from '../messages.js';
import { codeAnswer, surfaceOf } from '../ports/outcome.js';
import { stablecoinOf } from '../ports/purchase.js';
import type { SharedGuard } from './guard.js';
import { FACTS, known } from './run.js';

export const SWITCHES: SharedGuard = {
  name: 'switches',
  codes: [PURCHASE_ERRORS.mpp_disabled, PURCHASE_ERRORS.purchases_disabled],
  why: 'A closed deployment sells nothing new, whatever the request carries (403, nothing charged, no challenge); only a payment already sent goes on, above.',
  run: async (ctx) => {
    if (!ctx.config.mppEnabled) return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surfaceOf(ctx.config));
    if (!ctx.config.purchasesOpen) return purchaseAnswer(PURCHASE_ERRORS.purchases_disabled, surfaceOf(ctx.config));
    return undefined;
  },
};

export const OFFER: SharedGuard = {
  name: 'offer',
  codes: [PURCHASE_ERRORS.mpp_not_configured, PAYMENT_PROBLEMS.paymentRequired],
  why: 'A request with no credential is answered with one fresh challenge of the first method it accepts that is offered (7.4: a challenge names one method), or 503 when it accepts none.',
  run: async (ctx) => {
    if (ctx.presented.parsed !== undefined) return undefined;
    const offer = ctx.surface.offer(ctx);
    if (offer === undefined) return codeAnswer(PURCHASE_ERRORS.mpp_not_configured, ctx.config);
    return withFreshChallenge(PAYMENT_PROBLEMS.paymentRequired, ctx.ports, ctx.config, ctx.input.now, undefined, offer);
  },
};

export const READABLE: SharedGuard = {
  name: 'readable',
  codes: [PAYMENT_PROBLEMS.malformedCredential],
  why: 'Nothing a credential says can be judged until it parses; a fresh challenge rides on the refusal.',
  run: async (ctx) => {
    const parsed = known(ctx.presented.parsed, FACTS.credential);
    if (!parsed.ok) return ctx.surface.fresh(ctx, PAYMENT_PROBLEMS.malformedCredential, MESSAGES.malformedCredential(parsed.detail));
    ctx.credential = parsed.credential;
    return undefined;
  },
};

export const METHOD: SharedGuard = {
  name: 'method',
  codes: [PURCHASE_ERRORS['method-unsupported']],
  why: 'A method this surface does not sell by now cannot be paid, and its challenge is not looked up (400, no challenge): card always; the stablecoin only where transfers are offered.',
  run: async (ctx) => {
    const method = known(ctx.credential, FACTS.credential).challenge.method;
    if (!ctx.surface.methods(ctx).some((sold) => sold === method)) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surfaceOf(ctx.config));
    ctx.stablecoin = stablecoinOf(ctx.ports, ctx.config);
    return undefined;
  },
};
