import { afterAll, describe, expect } from 'vitest';
import { termsHeaderProblems } from '../src/harness/judge-purchase.js';
import { HEADERS } from '../src/spec/headers.js';
import { PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS } from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { AGENT_STATES } from '../src/contract/test-control.js';
import { arrange, arrangeIfOffered, cardPayment, expectPaidAnswer, expectPaidAnswerOf, expectSucceeded, type PaidExchange, payOrNotRun } from './lib/buyer.js';
import { AT_ONCE, RACES, presentAtOnce } from './lib/at-once.js';
import { check } from './lib/check.js';
import { sameCredential503 } from './lib/pack.js';
import { EXACT, expectServed, ids, offered, saleSuite, token } from './lib/single-call.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 3 rows 1 and 5 to 7 for single calls: a card charge not yet settled, resumed by the same credential, and
 * what the same credential answers once the payment settled (served once, in progress, refunded, not funded).
 */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const { need, buyer, priced, call, payable, processorFinishes } = saleSuite(target, 'single-call');

/**
 * Every answer to presentations of one call credential made at once: one served, and every other one of that call
 * (409 call_in_progress or call_already_served) or a 503 asking for the same credential again.
 */
function expectOneCall(answers: readonly PaidExchange[]): void {
  const served = answers.filter((a) => a.status >= 200 && a.status < 300);
  expect(served.length, `presentations served: ${answers.map((a) => `${a.status} ${a.refusal ?? ''}`).join(', ')}`).toBe(1);
  expectServed(served[0]!);
  for (const other of answers.filter((a) => a !== served[0])) {
    const settling = sameCredential503(other);
    if (settling) expectPaidAnswerOf('a presentation made at once, asked to present the credential again', other, settling);
    else
      expectPaidAnswerOf(
        'a presentation made at once with the one served',
        other,
        other.refusal === E.call_in_progress.code ? E.call_in_progress : E.call_already_served,
      );
  }
}

describe(`3 a single call's charge settling, and after it settled (${target.description})`, () => {
  check({
    id: 'single-call.charge-processing',
    title: "a call's charge still processing is served once settled, and only to its agent",
    requirements: ids(E.charge_processing, E.terms_acceptance_unauthenticated, P.resumeSameCredential, E.call_already_served),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'processing');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
      expectPaidAnswerOf('the first presentation', await call(c, b, { headers }), E.charge_processing);
      expectPaidAnswerOf('the same credential while the charge still processes', await call(c, b, { headers }), E.charge_processing);
      await processorFinishes(c, paying, 'settled');
      expectPaidAnswerOf(
        "the agent's settled credential presented unsigned",
        await call(c, b, { signed: false, headers: cardPayment(offer.echo, paying, offer.version) }),
        E.terms_acceptance_unauthenticated,
      );
      expectServed(await call(c, b, { headers }));
      expectPaidAnswerOf('the same credential once served', await call(c, b, { headers }), E.call_already_served);
    },
  });

  check({
    id: 'single-call.resumed-not-asked-again',
    title: 'a resumed call charge is not refused for per-call card terms, prices or terms changed since',
    requirements: ids(P.resumeSameCredential, E.charge_processing, E.metered_unavailable_for_card),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'resumed-unchanged');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
      expectPaidAnswer(await call(c, b, { headers }), E.charge_processing);
      // Section 3: "earlier checks (card capacity, terms version, re-pricing, caps, market closure) are not asked again".
      await arrange(target, c, { state: AGENT_STATES.callCardClosed, agent: b.agentUrl });
      await arrange(target, c, { state: AGENT_STATES.callRepriced, agent: b.agentUrl });
      await arrange(target, c, { state: AGENT_STATES.termsChanged, agent: b.agentUrl });
      await processorFinishes(c, paying, 'settled');
      expectServed(await call(c, b, { headers }));
      expectPaidAnswerOf('the same credential once served', await call(c, b, { headers }), E.call_already_served);
      // The per-call card offer is closed for a new purchase.
      const next = await payable(c, b);
      expectPaidAnswerOf(
        'a new purchase once per-call card sales closed',
        await call(c, b, { headers: { ...EXACT, ...cardPayment(next.echo, token('settled'), next.version) } }),
        E.metered_unavailable_for_card,
      );
    },
  });

  check({
    id: 'single-call.resumed-after-caps-and-market',
    title: "a resumed call charge is not refused for its card's market closed or daily caps reached since",
    requirements: ids(P.resumeSameCredential, E.metered_principal_cap, E.metered_instrument_cap, E.metered_platform_ceiling, E.purchases_unavailable_region),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'resumed-capped');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
      expectPaidAnswer(await call(c, b, { headers }), E.charge_processing);
      // Section 3: "earlier checks (card capacity, terms version, re-pricing, caps, market closure) are not asked again".
      await arrange(target, c, { state: AGENT_STATES.marketClosed, agent: b.agentUrl });
      // The agent's daily cap and its card's are reached by this very purchase too.
      await arrange(target, c, { state: AGENT_STATES.callCapsOne, agent: b.agentUrl });
      await processorFinishes(c, paying, 'settled');
      expectServed(await call(c, b, { headers }));
      expectPaidAnswerOf('the same credential once served', await call(c, b, { headers }), E.call_already_served);
      // The market and the caps hold for a new purchase.
      const next = await payable(c, b);
      const refused = await call(c, b, { headers: { ...EXACT, ...cardPayment(next.echo, token('settled'), next.version) } });
      const held = [E.purchases_unavailable_region, E.metered_principal_cap, E.metered_instrument_cap, E.metered_platform_ceiling];
      expectPaidAnswerOf('a new purchase', refused, held.find((r) => r.code === refused.refusal) ?? E.purchases_unavailable_region);
    },
  });

  check({
    id: 'single-call.charge-outcome-unknown',
    title: "a call's charge of unknown outcome is served once settled",
    requirements: ids(E.charge_outcome_unknown, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'outcome-unknown');
      const offer = await payable(c, b);
      const paying = token('unknown');
      const headers = { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) };
      expectPaidAnswer(await call(c, b, { headers }), E.charge_outcome_unknown);
      await processorFinishes(c, paying, 'settled');
      expectServed(await call(c, b, { headers }));
    },
  });

  check({
    id: 'single-call.resumed-elsewhere',
    title: 'a call credential is resumed only at the resource that issued its challenge',
    requirements: ids(E.challenge_origin_mismatch, M.unsignedSizedToCall, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'resumed-elsewhere');
      const elsewhere = offered(await call(c, b, { signed: false, path: priced(c).otherPath }));
      await payOrNotRun(target, c, elsewhere.amount);
      const paying = token('processing');
      const headers = cardPayment(elsewhere.echo, paying, elsewhere.version);
      expectPaidAnswer(await call(c, b, { signed: false, path: priced(c).otherPath, headers }), E.charge_processing);
      await processorFinishes(c, paying, 'settled');
      expectPaidAnswerOf(`presented at ${priced(c).path}`, await call(c, b, { signed: false, headers }), E.challenge_origin_mismatch);
      expectServed(await call(c, b, { signed: false, path: priced(c).otherPath, headers }));
    },
  });

  check({
    id: 'single-call.sale-serve-pending',
    title: 'the call did not start: 503 sale_serve_pending; the same credential serves it once',
    requirements: ids(E.sale_serve_pending, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'serve-pending');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('settled'), offer.version);
      await arrange(target, c, { state: AGENT_STATES.callNotStarted, agent: b.agentUrl });
      expectPaidAnswer(await call(c, b, { headers }), E.sale_serve_pending);
      expectServed(await call(c, b, { headers }));
      expectPaidAnswer(await call(c, b, { headers }), E.call_already_served);
    },
  });

  check({
    id: 'single-call.call-in-progress',
    title: 'the same call credential presented while its call runs: 409 call_in_progress',
    requirements: ids(E.call_in_progress),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      let inProgress = 0;
      for (let race = 0; race < RACES; race++) {
        const b = await buyer(c, `in-progress-${race}`);
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        // Where the deployment offers it, the resource takes its time over the call; otherwise a call takes what it takes.
        await arrangeIfOffered(target, { state: AGENT_STATES.callSlow, agent: b.agentUrl });
        const answers = (await presentAtOnce(() => call(c, b, { headers }))).flat();
        expectOneCall(answers);
        inProgress += answers.filter((a) => a.refusal === E.call_in_progress.code).length;
      }
      if (inProgress === 0)
        c.notRun(
          `no presentation of ${RACES * AT_ONCE} arrived while its call ran (each was answered before or after it), so ${E.call_in_progress.code} was not observed; nothing a run can add makes a deployment's call last longer`,
        );
    },
  });

  check({
    id: 'single-call.claimed-once',
    title: 'one call credential presented several times at once: the call runs once',
    requirements: ids(E.call_in_progress, E.call_already_served),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (let race = 0; race < RACES; race++) {
        const b = await buyer(c, `claimed-once-${race}`);
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        expectOneCall((await presentAtOnce(() => call(c, b, { headers }))).flat());
        expectPaidAnswerOf('the credential presented once more', await call(c, b, { headers }), E.call_already_served);
      }
    },
  });

  check({
    id: 'single-call.grant-failed',
    title: 'a call paid but not credited: 503 grant_failed; the same credential serves it once',
    requirements: ids(E.grant_failed, P.resumeSameCredential, E.call_already_served),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'grant-failed');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('settled'), offer.version);
      await arrange(target, c, { state: AGENT_STATES.grantFails, agent: b.agentUrl });
      expectPaidAnswer(await call(c, b, { headers }), E.grant_failed);
      expectServed(await call(c, b, { headers }));
      // Served and credited, the credential again is 409 call_already_served, even while credits cannot be recorded (nothing is left to credit).
      await arrange(target, c, { state: AGENT_STATES.grantFails, agent: b.agentUrl });
      expectPaidAnswerOf('the served credential again while credits cannot be recorded', await call(c, b, { headers }), E.call_already_served);
    },
  });

  check({
    id: 'single-call.call-refunded',
    title: 'the call failed and was refunded: the same credential again is 409 call_refunded',
    requirements: ids(E.call_refunded),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'refunded');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('settled'), offer.version);
      await arrange(target, c, { state: AGENT_STATES.callCrashes, agent: b.agentUrl });
      expectPaidAnswer(await call(c, b, { headers }), E.call_refunded);
      expectPaidAnswer(await call(c, b, { headers }), E.call_refunded);
    },
  });

  check({
    id: 'single-call.failed-call-no-receipt',
    title: 'a call that ran and failed has no Payment-Receipt and is refunded',
    requirements: ids(P.receiptOnSuccessOnly, P.termsOnFunded, E.call_refunded),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'failed-call');
      const offer = await payable(c, b);
      const paidWith = token('settled');
      const headers = cardPayment(offer.echo, paidWith, offer.version);
      await arrange(target, c, { state: AGENT_STATES.callFails, agent: b.agentUrl });
      const failed = await call(c, b, { headers });
      // The spec gives no status for a call that ran and failed; the resource's own error answer or 409 call_refunded both fit.
      expect(failed.status >= 200 && failed.status < 300, `a call that failed is not answered as a success (got ${failed.status})`).toBe(false);
      expect(failed.response.headers[HEADERS.paymentReceipt], `no Payment-Receipt on the ${failed.status} of a call that failed`).toBeUndefined();
      const terms = termsHeaderProblems(failed.response, failed.facts);
      if (terms.length) expect.fail(`the funded call's ${failed.status}: ${terms.join('\n')}`);
      expectPaidAnswer(await call(c, b, { headers }), E.call_refunded);
      // Refunded, the purchase leaves nothing to pay a call with: the next call is offered a purchase (402), not served, nor
      // 503 funding_unavailable (which says the balance covers the call).
      expectPaidAnswerOf('a call after the refund', await call(c, b, { headers: EXACT }), PAYMENT_PROBLEMS.paymentRequired);
    },
  });

  check({
    id: 'single-call.funding-failed',
    title: 'credited but the call could not be funded: 503 funding_failed with the purchase block',
    requirements: ids(E.funding_failed),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'funding-failed');
      const offer = await payable(c, b);
      await arrange(target, c, { state: AGENT_STATES.fundingFails, agent: b.agentUrl });
      const answer = await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) });
      expectPaidAnswer(answer, E.funding_failed);
      expect(answer.body?.[PURCHASE_BODY_MEMBERS.purchase], 'the purchase block').toBeDefined();
    },
  });

  check({
    id: 'single-call.balance-after-funding-failed',
    title: 'credited but unfunded: the request without a credential is paid from the balance',
    requirements: ids(E.funding_failed, E.funding_unavailable, E.purchase_already_granted, P.termsOnFunded),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'unfunded-then-balance');
      const offer = await payable(c, b);
      const paidWith = token('settled');
      await arrange(target, c, { state: AGENT_STATES.fundingFailsOnce, agent: b.agentUrl });
      expectPaidAnswer(await call(c, b, { headers: cardPayment(offer.echo, paidWith, offer.version) }), E.funding_failed);
      // Section 3: the credential presented again once its usage is credited is 409 purchase_already_granted, and takes nothing of the balance.
      expectPaidAnswerOf(
        'the credential presented again',
        await call(c, b, { headers: cardPayment(offer.echo, paidWith, offer.version) }),
        E.purchase_already_granted,
      );
      // Two calls at once, paid from the balance: the resource takes its time over the first, which holds the whole balance.
      await arrange(target, c, { state: AGENT_STATES.callSlow, agent: b.agentUrl });
      const [one, two] = await Promise.all([call(c, b), call(c, b)]);
      const [served, meanwhile] = one!.status === 503 ? [two!, one!] : [one!, two!];
      expectSucceeded(served, 'the call paid from the balance the purchase credited');
      const terms = termsHeaderProblems(served.response, served.facts);
      if (terms.length) expect.fail(`the call paid from the balance: ${terms.join('\n')}`);
      expectPaidAnswerOf('a second call while the first holds the whole balance', meanwhile, E.funding_unavailable);
    },
  });

  check({
    id: 'single-call.funding-unavailable',
    title: 'a balance whose funding step fails: 503 funding_unavailable, nothing charged',
    requirements: ids(E.funding_unavailable),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'funding-unavailable');
      const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
      await payOrNotRun(target, c, pack.amount);
      expectSucceeded(await b.post({ path: PLATFORM_ROUTES.mppCredits, headers: cardPayment(pack.echo, token('settled'), pack.version) }), 'the pack');
      await arrange(target, c, { state: AGENT_STATES.fundingFails, agent: b.agentUrl });
      expectPaidAnswer(await call(c, b), E.funding_unavailable);
      // Nothing taken from the balance, as the wire shows it: it still covers the call (once spent, the call would be offered a purchase).
      expectPaidAnswerOf('the same request again', await call(c, b), E.funding_unavailable);
    },
  });
});
