import { PAYMENT_PROBLEMS } from '../../../spec/payments.js';
import { PURCHASE_ERRORS } from '../../../spec/purchase-errors.js';
import { purchaseAnswer } from '../answers.js';
import { withFreshChallenge } from '../issue.js';
import { railSold } from '../method.js';
import { MESSAGES } from '../messages.js';
import { codeAnswer, surfaceOf } from '../ports/outcome.js';
import { stablecoinOf } from '../ports/purchase.js';
import { given } from './facts.js';
import { sharedGuard } from './guard.js';

export const SWITCHES = sharedGuard({
  name: 'switches',
  codes: [PURCHASE_ERRORS.mpp_disabled, PURCHASE_ERRORS.purchases_disabled],
  why: 'A closed deployment sells nothing new, whatever the request carries (403, nothing charged, no challenge); only a payment already sent goes on, above.',
  needs: [],
  gives: [],
  run: async (ctx) => {
    if (!ctx.config.mppEnabled) return purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surfaceOf(ctx.config));
    if (!ctx.config.purchasesOpen) return purchaseAnswer(PURCHASE_ERRORS.purchases_disabled, surfaceOf(ctx.config));
    return undefined;
  },
});

export const OFFER = sharedGuard({
  name: 'offer',
  codes: [PURCHASE_ERRORS.mpp_not_configured, PAYMENT_PROBLEMS.paymentRequired],
  why: 'A request with no credential is answered with one fresh challenge of the first method it accepts that is offered (7.4: a challenge names one method), or 503 when it accepts none.',
  needs: [],
  gives: ['parsed'],
  run: async (ctx) => {
    const { parsed } = ctx.presented;
    if (parsed !== undefined) return given({ parsed });
    const offer = ctx.surface.offer();
    if (offer === undefined) return codeAnswer(PURCHASE_ERRORS.mpp_not_configured, ctx.config);
    return withFreshChallenge(PAYMENT_PROBLEMS.paymentRequired, ctx.ports, ctx.config, ctx.input.now, undefined, offer);
  },
});

export const READABLE = sharedGuard({
  name: 'readable',
  codes: [PAYMENT_PROBLEMS.malformedCredential],
  why: 'Nothing a credential says can be judged until it parses; a fresh challenge rides on the refusal.',
  needs: ['parsed'],
  gives: ['credential'],
  run: async (ctx) => {
    const { parsed } = ctx;
    if (!parsed.ok) return ctx.surface.fresh(PAYMENT_PROBLEMS.malformedCredential, { description: MESSAGES.malformedCredential(parsed.detail) });
    return given({ credential: parsed.credential });
  },
});

export const METHOD = sharedGuard({
  name: 'method',
  codes: [PURCHASE_ERRORS['method-unsupported']],
  why: 'A method this surface does not sell by now cannot be paid, and its challenge is not looked up (400, no challenge): card always; the stablecoin only where transfers are offered.',
  needs: ['credential'],
  gives: ['rail'],
  run: async (ctx) => {
    const { method } = ctx.credential.challenge;
    const rail = ctx.surface.methods().some((sold) => sold === method) ? railSold(method, stablecoinOf(ctx.ports, ctx.config)) : undefined;
    if (rail === undefined) return purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surfaceOf(ctx.config));
    return given({ rail });
  },
});
