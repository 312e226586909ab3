import { afterAll, describe, expect } from 'vitest';
import { judgeRefusal } from '../src/harness/judge-refusal.js';
import type { ChallengeEcho } from '../src/purchase/index.js';
import { AUTH_CODES } from '../src/spec/auth-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../src/spec/payments.js';
import { READINGS } from '../src/spec/readings.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { ADDRESS_STATES, AGENT_STATES, type AgentState } from '../src/contract/test-control.js';
import { arrange, cardPayment, expectPaidAnswer, expectPaidAnswerOf, expectSucceeded, payOrNotRun } from './lib/buyer.js';
import { check } from './lib/check.js';
import { signTransfer, tempoOffer, PREFER_TEMPO, stablecoinCredential } from './lib/stablecoin.js';
import { EXACT, expectServed, ids, offered, ownAddress, saleSuite, token } from './lib/single-call.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.4 single-call sales over HTTP at the priced resource the target names (the spec names none, so a live
 * deployment is checked at the reference's paths, READING-PAID-SUCCESS, and the checks are not run where it serves
 * nothing there): the 402 sized to the call and buying one call by card. Stablecoin calls, charges that settle later,
 * the daily caps and what is served are in the other 7.4-single-call files. A live run presents no payment credential
 * without 'spend'.
 */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const { need, buyer, priced, call, mayPay, payable, callFrom } = saleSuite(target, 'single-call');

describe(`7.4 single-call sales: the 402 sized to the call, and buying one call (${target.description})`, () => {
  check({
    id: 'single-call.unsigned-402',
    title: 'an unsigned caller gets a 402 (not a 401) with one challenge sized to the call',
    requirements: ids(M.unsignedSizedToCall, P.challengeShape),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'unsigned');
      const answer = await call(c, b, { signed: false });
      expectPaidAnswer(answer, PAYMENT_PROBLEMS.paymentRequired);
      // Service-Purchase is an agent's choice among its covered components: an unsigned caller asking for the pack is still sized to the call.
      const asksPack = await call(c, b, { signed: false, headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } });
      expectPaidAnswerOf('an unsigned caller sending Service-Purchase: pack', asksPack, PAYMENT_PROBLEMS.paymentRequired);
      expect(offered(asksPack).amount, 'an unsigned caller sending Service-Purchase: pack is quoted the call').toBe(offered(answer).amount);
    },
  });

  check({
    id: 'single-call.service-purchase',
    title: 'a signed agent sending Service-Purchase: exact (covered) is sized to the call; pack gets the pack',
    requirements: ids(M.unsignedSizedToCall, P.purchaseKindCovered),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'kinds');
      const exact = offered(await call(c, b, { headers: EXACT }));
      const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
      // The prices are the deployment's: one call is what an unsigned caller is quoted there, the pack what
      // /api/mpp/credits quotes.
      const oneCall = offered(await call(c, b, { signed: false }));
      const packPrice = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
      if (oneCall.amount === packPrice.amount) c.notRun('the target prices a single call as it prices the pack, so the two offers cannot be told apart');
      expect(exact.amount, 'Service-Purchase: exact is quoted one call').toBe(oneCall.amount);
      expect(pack.amount, 'Service-Purchase: pack is quoted the pack').toBe(packPrice.amount);
    },
  });

  check({
    id: 'single-call.service-purchase-covered-only',
    title: 'an uncovered Service-Purchase decides nothing',
    requirements: ids(P.purchaseKindCovered),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'kinds-uncovered');
      const without = offered(await call(c, b));
      const exact = offered(await call(c, b, { headers: EXACT }));
      const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
      if (exact.amount === pack.amount) c.notRun('the target prices a single call as it prices the pack, so the two offers cannot be told apart');
      for (const kind of [PURCHASE_KINDS.exact, PURCHASE_KINDS.pack]) {
        const uncovered = offered(await call(c, b, { headers: { [HEADERS.purchase]: kind }, cover: [] }));
        expect(uncovered.amount, `Service-Purchase: ${kind}, not covered, is offered what no Service-Purchase is offered`).toBe(without.amount);
      }
    },
  });

  check({
    id: 'single-call.metered-not-ready',
    title: 'unidentified calls not sold: 503 metered_not_ready',
    requirements: ids(E.metered_not_ready, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'client-address');
      const b = await buyer(c, 'not-ready');
      const address = ownAddress(b);
      const earlier = offered(await callFrom(c, b, address));
      await mayPay(c, earlier.amount);
      await arrange(target, c, { state: ADDRESS_STATES.unidentifiedCallsClosed, address });
      expectPaidAnswer(await callFrom(c, b, address), E.metered_not_ready);
      // A challenge issued while such calls were sold buys none once they are not: nothing charged.
      expectPaidAnswerOf(
        'an unidentified call challenge presented once such calls are not sold',
        await callFrom(c, b, address, cardPayment(earlier.echo, token('settled'), earlier.version)),
        E.metered_not_ready,
      );
      // "sign with an agent key": the same resource still sells the call to a signed agent, from the same address.
      offered(await call(c, b, { headers: EXACT, clientAddress: address }));
    },
  });
  check({
    id: 'single-call.verifier-401',
    title: "a signed call that does not verify gets the verifier's 401, not a 402",
    requirements: ids(P.verifierCodeOnPaidSurface),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'bad-signature');
      // The resource must sell calls (not-run otherwise), or a 404 would prove nothing.
      await call(c, b, { signed: false });
      await target.ready?.(1);
      b.sync();
      const answer = await b.send(
        b.kit.request({
          url: b.kit.url(priced(c).path),
          headers: [[HEADERS.purchase, PURCHASE_KINDS.exact]],
          labels: [{ label: 'sig1', key: b.kit.A, tamper: (s) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) }],
        }),
      );
      const judged = judgeRefusal(answer.response, true, target.environment.naming);
      expect(answer.status, 'status').toBe(401);
      expect(judged.code, 'error_code').toBe(AUTH_CODES.signature_invalid);
      if (judged.problems.length) expect.fail(judged.problems.join('\n'));
      expect(answer.challengeCount, 'no Payment challenge on the 401').toBe(0);
    },
  });

  check({
    id: 'single-call.mpp-not-configured',
    title: 'no method the agent names sells the call: 503 mpp_not_configured',
    requirements: ids(E.mpp_not_configured, M.methodsHint, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      const b = await buyer(c, 'no-method');
      const methods = (value: string) => ({ ...EXACT, [HEADERS.paymentMethods]: value });
      expectPaidAnswerOf('Service-Payment-Methods: no-such-method', await call(c, b, { headers: methods('no-such-method') }), E.mpp_not_configured);
      // The pack a priced resource offers an agent is judged like any offer: its method is one the agent names, or none is offered.
      const pack = await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack, [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo } });
      if (pack.status === 503) expectPaidAnswerOf('the pack asked for by stablecoin only', pack, E.mpp_not_configured);
      else expect(offered(pack).method, 'the method of the pack offered to an agent naming only tempo').toBe(PAYMENT_METHODS.tempo);
    },
  });

  check({
    id: 'single-call.served-once',
    title: 'a bought call is served once; the same credential again is 409 call_already_served',
    requirements: ids(E.call_already_served, P.termsOnFunded, P.challengeShape),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'served');
      const offer = await payable(c, b, { signed: false });
      const headers = cardPayment(offer.echo, token('settled'), offer.version);
      const served = await call(c, b, { signed: false, headers });
      expectServed(served);
      expectPaidAnswer(await call(c, b, { signed: false, headers }), E.call_already_served);
      // Its challenge paid again with another card buys nothing more: the challenge is spent (a fresh one rides), or the call served.
      const otherCard = token('settled');
      const other = await call(c, b, { signed: false, headers: cardPayment(offer.echo, otherCard, offer.version) });
      expectPaidAnswerOf(
        `the same challenge paid with another card (${READINGS.challengePaidAgain.id})`,
        other,
        other.status === 409 ? E.call_already_served : PAYMENT_PROBLEMS.invalidChallenge,
      );
      // Nothing was charged to the other card: it buys the next call (a token that paid is 403 foreign_token).
      const next = await payable(c, b, { signed: false });
      expectServed(await call(c, b, { signed: false, headers: cardPayment(next.echo, otherCard, next.version) }));
    },
  });

  check({
    id: 'single-call.declined-fresh-challenge',
    title: 'a declined card for a call ends in a fresh challenge that buys it',
    requirements: ids(P.declineFreshChallenge, E.metered_principal_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'declined');
      const offer = await payable(c, b);
      // The agent may buy one call a day: a declined card bought nothing, so it takes none of it.
      await arrange(target, c, { state: AGENT_STATES.callCapsOne, agent: b.agentUrl });
      const declined = { ...EXACT, ...cardPayment(offer.echo, token('declined'), offer.version) };
      const refused = await call(c, b, { headers: declined });
      expectPaidAnswer(refused, PAYMENT_PROBLEMS.verificationFailed);
      // Section 3: the same credential resumes its charge, which still reports nothing captured: a fresh challenge again.
      const again = await call(c, b, { headers: declined });
      expectPaidAnswerOf('the declined credential presented again', again, PAYMENT_PROBLEMS.verificationFailed);
      const fresh = offered(refused);
      await payOrNotRun(target, c, fresh.amount);
      expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(fresh.echo, token('settled'), fresh.version) } }));
    },
  });

  check({
    id: 'single-call.challenge-echo-and-buyer',
    title: 'a forged call echo is 402 invalid-challenge, nothing charged',
    requirements: ids(P.challengeShape, E.terms_acceptance_unauthenticated),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'echo-buyer');
      const offer = await payable(c, b);
      const last = offer.echo.id.endsWith('A') ? 'B' : 'A';
      const forged: ReadonlyArray<readonly [string, ChallengeEcho]> = [
        ['an id never issued', { ...offer.echo, id: `${offer.echo.id.slice(0, -1)}${last}` }],
        ['the realm changed', { ...offer.echo, realm: `${offer.echo.realm}.example` }],
      ];
      const paying = token('settled');
      for (const [what, echo] of forged)
        expectPaidAnswerOf(what, await call(c, b, { headers: { ...EXACT, ...cardPayment(echo, paying, offer.version) } }), PAYMENT_PROBLEMS.invalidChallenge);
      expectPaidAnswerOf(
        "the agent's call challenge presented unsigned",
        await call(c, b, { signed: false, headers: cardPayment(offer.echo, paying, offer.version) }),
        E.terms_acceptance_unauthenticated,
      );
      // Nothing was charged to the token: signed by the agent, it buys the call its challenge sells.
      expectServed(await call(c, b, { headers: { ...EXACT, ...cardPayment(offer.echo, paying, offer.version) } }));
    },
  });

  check({
    id: 'single-call.terms-acceptance-required',
    title: 'a call credential without assent: 402 terms-acceptance-required',
    requirements: ids(E['terms-acceptance-required'], M.methodsHint, P.challengeShape),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'terms');
      const byCard = { ...EXACT, [HEADERS.paymentMethods]: PAYMENT_METHODS.stripe };
      const offer = await payable(c, b, { headers: byCard });
      const paying = token('settled');
      const refused = await call(c, b, { headers: { ...byCard, ...cardPayment(offer.echo, paying, null) } });
      expectPaidAnswer(refused, E['terms-acceptance-required']);
      const fresh = offered(refused);
      expect(fresh.method, 'the method of the fresh challenge, for an agent listing only card').toBe(PAYMENT_METHODS.stripe);
      // A stablecoin challenge's echo forged, presented by the agent now listing only card: the fresh challenge is a card one too.
      const tempoAnswer = await call(c, b, { headers: { ...EXACT, ...PREFER_TEMPO } });
      if (tempoAnswer.challenges[0]?.challenge.method === PAYMENT_METHODS.tempo) {
        const t = tempoOffer(tempoAnswer);
        const forged = { ...t, echo: { ...t.echo, id: `${t.echo.id.slice(0, -1)}${t.echo.id.endsWith('A') ? 'B' : 'A'}` } };
        const refusedForged = await call(c, b, { headers: { ...byCard, ...stablecoinCredential(forged, await signTransfer(t)) } });
        expectPaidAnswerOf('a forged stablecoin echo', refusedForged, PAYMENT_PROBLEMS.invalidChallenge);
        expect(offered(refusedForged).method, 'the method of the fresh challenge for a forged stablecoin echo, to an agent listing only card').toBe(
          PAYMENT_METHODS.stripe,
        );
      }
      await payOrNotRun(target, c, fresh.amount);
      // Nothing was charged to the token refused: it pays the fresh challenge.
      expectServed(await call(c, b, { headers: { ...byCard, ...cardPayment(fresh.echo, paying, fresh.version) } }));
    },
  });

  check({
    id: 'single-call.pack-challenge-for-call',
    title: 'a pack challenge presented for a call: 403 challenge_kind_mismatch',
    requirements: ids(E.challenge_kind_mismatch),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'kind-pack');
      const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
      expectPaidAnswer(await call(c, b, { headers: cardPayment(pack.echo, token('settled'), pack.version) }), E.challenge_kind_mismatch);
    },
  });

  check({
    id: 'single-call.call-challenge-at-credits',
    title: 'a call challenge presented at /api/mpp/credits: 403 challenge_kind_mismatch',
    requirements: ids(E.challenge_kind_mismatch),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'kind-call');
      const offer = offered(await call(c, b, { headers: EXACT }));
      expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.challenge_kind_mismatch);
    },
  });

  check({
    id: 'single-call.challenge-origin-mismatch',
    title: 'a call challenge issued by another priced resource: 403 challenge_origin_mismatch',
    requirements: ids(E.challenge_origin_mismatch),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'origin');
      const elsewhere = offered(await call(c, b, { signed: false, path: priced(c).otherPath }));
      // The resource it is presented at must itself sell calls (not-run otherwise), or a 404 would prove nothing.
      await call(c, b, { signed: false });
      expectPaidAnswer(
        await call(c, b, { signed: false, headers: cardPayment(elsewhere.echo, token('settled'), elsewhere.version) }),
        E.challenge_origin_mismatch,
      );
    },
  });

  check({
    id: 'single-call.pack-challenge-honoured-at-credits',
    title: 'a pack challenge a priced resource issued is honoured at /api/mpp/credits',
    requirements: ids(E.challenge_origin_mismatch, E.challenge_kind_mismatch, E.purchase_already_granted),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'pack-elsewhere');
      const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
      await payOrNotRun(target, c, pack.amount);
      const headers = cardPayment(pack.echo, token('settled'), pack.version);
      const paid = await b.post({ path: PLATFORM_ROUTES.mppCredits, headers });
      expectSucceeded(paid, `the pack bought at ${PLATFORM_ROUTES.mppCredits} with a challenge ${priced(c).path} issued`);
      // The redeemed pack credential presented for a call at the resource that issued it buys no call: a pack challenge
      // for a call (403 challenge_kind_mismatch), or a pack credential presented again on a paid resource (409).
      const again = await call(c, b, { headers: { ...EXACT, ...headers } });
      expectPaidAnswerOf(
        `the redeemed pack credential presented at ${priced(c).path}`,
        again,
        again.status === 409 ? E.purchase_already_granted : E.challenge_kind_mismatch,
      );
    },
  });

  check({
    id: 'single-call.buyer-inactive',
    title: 'the challenge names an agent that is not active: 403 buyer_inactive',
    requirements: ids(E.buyer_inactive),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'inactive');
      const offer = await payable(c, b);
      await arrange(target, c, { state: AGENT_STATES.buyerInactive, agent: b.agentUrl });
      expectPaidAnswer(await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.buyer_inactive);
    },
  });

  check({
    id: 'single-call.metered-unavailable-for-card',
    title: 'per-call card terms changed after the challenge: 403 metered_unavailable_for_card, nothing charged',
    requirements: ids(E.metered_unavailable_for_card),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'card-closed');
      const offer = await payable(c, b);
      await arrange(target, c, { state: AGENT_STATES.callCardClosed, agent: b.agentUrl });
      const headers = cardPayment(offer.echo, token('settled'), offer.version);
      expectPaidAnswer(await call(c, b, { headers }), E.metered_unavailable_for_card);
      // Nothing charged, as the wire shows it: presented again, the credential is refused again (a charge sent would be resumed, section 3).
      expectPaidAnswerOf('the same credential presented again', await call(c, b, { headers }), E.metered_unavailable_for_card);
    },
  });

  check({
    id: 'single-call.metered-unavailable-card-country-or-price',
    title: 'a card or price no longer sold per call: 403 metered_unavailable_for_card',
    requirements: ids(E.metered_unavailable_for_card),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const served = await buyer(c, 'card-market-open');
      const quoted = await payable(c, served);
      expectServed(await call(c, served, { headers: cardPayment(quoted.echo, token('settled'), quoted.version) }));
      // Each state on a buyer of its own: states hold from then on.
      const refusedAfterChallenge = async (name: string, state: AgentState, what: string) => {
        const b = await buyer(c, name);
        const offer = await payable(c, b);
        await arrange(target, c, { state, agent: b.agentUrl });
        expectPaidAnswerOf(what, await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.metered_unavailable_for_card);
      };
      await refusedAfterChallenge('card-market', AGENT_STATES.callCardMarketElsewhere, 'a card of a market per-call card offers are not sold in');
      await refusedAfterChallenge('repriced', AGENT_STATES.callRepriced, 'the price changed after the challenge');
      await refusedAfterChallenge('currency', AGENT_STATES.callCurrencyChanged, 'the currency changed after the challenge');
      await refusedAfterChallenge('balance-cost', AGENT_STATES.callBalanceCostChanged, "the call's cost on the balance changed after the challenge");
      // "its country cannot be established": closed for the instrument's market (purchases_unavailable_region), or
      // the per-call card offer cannot be paid (metered_unavailable_for_card).
      const unplaced = await buyer(c, 'card-unplaced');
      const unknown = await payable(c, unplaced);
      await arrange(target, c, { state: AGENT_STATES.cardCountryUnknown, agent: unplaced.agentUrl });
      const refusedUnplaced = await call(c, unplaced, { headers: cardPayment(unknown.echo, token('settled'), unknown.version) });
      expectPaidAnswerOf(
        'a card whose country cannot be established',
        refusedUnplaced,
        refusedUnplaced.refusal === E.purchases_unavailable_region.code ? E.purchases_unavailable_region : E.metered_unavailable_for_card,
      );
    },
  });
});
