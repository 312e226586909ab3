import { afterAll, describe, expect } from 'vitest';
import { errorCodeOf } from '../src/harness/judge-purchase.js';
import type { FakeChargeState } from '../src/purchase/testing/index.js';
import { HEADERS } from '../src/spec/headers.js';
import { LIMITS } from '../src/spec/limits.js';
import { PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../src/spec/payments.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { CHALLENGE_EXPIRY_TOLERANCE_S, READINGS } from '../src/spec/readings.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { presentAtOnce, RACES } from './lib/at-once.js';
import { arrange, cardPayment, expectPaidAnswer, expectPaidAnswerOf, type PaidExchange } from './lib/buyer.js';
import { AGENT_STATES, TOKEN_STATES } from '../src/contract/test-control.js';
import { check } from './lib/check.js';
import {
  LIFETIME_S,
  challengeOf,
  expectAcceptanceUnauthenticated,
  expectGranted,
  ids,
  packSuite,
  receiptReference,
  sameCredential503,
  stablecoinPayment,
  token,
} from './lib/pack.js';
import { PREFER_TEMPO } from './lib/stablecoin.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 3's moves at POST /api/mpp/credits (with 7.4): a declined or expired credential answered with a fresh
 * challenge, a charge that settles later resumed by the same credential, a settlement credited once, one purchase
 * of a buyer settling at a time, and one credential presented several times at once. A live run presents no payment
 * credential unless it was started with --allow-spend --spend-cap N.
 */
const target = suiteTarget();
afterAll(() => target.close());

const P = PURCHASE_REQUIREMENTS;
const E = PURCHASE_ERRORS;
const { need, buyer, mayPay, payable, processorFinishes, expectFreshChallengePaid, needAging, agingTimeout } = packSuite(target, 'purchase');

/**
 * READING-CONCURRENT-REDEMPTION, over every answer to presentations of one credential made at once: the usage is
 * credited once, so every success names the one payment and every other answer is 409 purchase_already_granted or a
 * 503 asking for that credential again; never a refusal of the credential, a fresh challenge or a second payment.
 */
function expectOnePurchase(presentations: readonly (readonly PaidExchange[])[]): void {
  const answers = presentations.flat();
  const successes = answers.filter((a) => a.status >= 200 && a.status < 300);
  if (successes.length === 0)
    expect.fail(`none of the presentations made at once ended in the purchase: ${answers.map((a) => `${a.status} ${a.refusal ?? ''}`).join(', ')}`);
  const paid = receiptReference(successes[0]!);
  for (const success of successes) {
    expectGranted(success);
    expect(receiptReference(success), `every success names the one payment (${READINGS.concurrentRedemption.id})`).toBe(paid);
  }
  for (const late of answers.filter((a) => a.status < 200 || a.status >= 300)) {
    const settling = sameCredential503(late);
    if (settling) {
      expectPaidAnswerOf('a presentation made at once, asked to present the credential again', late, settling);
      continue;
    }
    if (late.status !== 409)
      expect.fail(
        `a presentation made at once with another was answered ${late.status} ${late.refusal ?? ''}: it is that purchase, answered 409 ${E.purchase_already_granted.code}, a success naming the same payment, or a 503 asking for the same credential (${READINGS.concurrentRedemption.id})`,
      );
    expectPaidAnswerOf('a presentation made at once with another', late, E.purchase_already_granted);
  }
}

describe(`3 the moves of a purchase at POST /api/mpp/credits (${target.description})`, () => {
  check({
    id: 'purchase.declined-fresh-challenge',
    title: 'a declined or cancelled charge ends in a fresh challenge that can be paid',
    requirements: ids(P.declineFreshChallenge),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (const outcome of ['declined', 'cancelled'] as const) {
        const b = await buyer(c, outcome);
        const offer = await payable(c, b);
        const refused = await b.post({ headers: cardPayment(offer.echo, token(outcome), offer.version) });
        await expectFreshChallengePaid(c, b, refused, PAYMENT_PROBLEMS.verificationFailed);
      }
    },
  });

  check({
    id: 'purchase.resumed-decline-fresh-challenge',
    title: 'a resumed charge that reports a decline ends in a fresh challenge',
    requirements: ids(P.declineFreshChallenge, E.charge_processing),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (const state of ['declined', 'cancelled-unsettled'] as const satisfies readonly FakeChargeState[]) {
        const b = await buyer(c, `resumed-${state}`);
        const offer = await payable(c, b);
        const paying = token('processing');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        await processorFinishes(c, paying, state);
        const refused = await b.post({ headers });
        await expectFreshChallengePaid(c, b, refused, PAYMENT_PROBLEMS.verificationFailed);
      }
    },
  });

  check({
    id: 'purchase.challenge-honoured-until-expiry',
    title: `a challenge is honoured until it expires: paid ${LIFETIME_S - CHALLENGE_EXPIRY_TOLERANCE_S} s after it was issued, the purchase succeeds`,
    requirements: [...ids(P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
    level: 'MUST',
    ...agingTimeout('purchase.challenge-honoured-until-expiry'),
    run: async (c) => {
      need(c, 'spend');
      needAging(c);
      const b = await buyer(c, 'honoured');
      const offer = await payable(c, b);
      await b.advance(LIFETIME_S - CHALLENGE_EXPIRY_TOLERANCE_S);
      expectGranted(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }));
    },
  });

  check({
    id: 'purchase.challenge-expired',
    title: 'a challenge older than 300 s with no charge: 402 payment-expired with a fresh challenge, which can be paid',
    requirements: [...ids(P.expiredFreshChallenge, P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
    level: 'MUST',
    ...agingTimeout('purchase.challenge-expired'),
    run: async (c) => {
      need(c, 'spend');
      needAging(c);
      const b = await buyer(c, 'expired');
      const offer = await payable(c, b);
      await b.advance(LIFETIME_S + CHALLENGE_EXPIRY_TOLERANCE_S + 1);
      const refused = await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) });
      await expectFreshChallengePaid(c, b, refused, PAYMENT_PROBLEMS.paymentExpired);
    },
  });

  check({
    id: 'purchase.expired-settled-credited',
    title: 'a payment that settles after its challenge expired is still credited, once; the credential then answers 409',
    requirements: ids(P.expiredFreshChallenge, P.settledCreditedOnce, E.purchase_already_granted),
    level: 'MUST',
    ...agingTimeout('purchase.expired-settled-credited'),
    run: async (c) => {
      need(c, 'spend');
      needAging(c);
      const b = await buyer(c, 'expired-settled');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = cardPayment(offer.echo, paying, offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
      await b.advance(LIFETIME_S + CHALLENGE_EXPIRY_TOLERANCE_S + 1);
      await processorFinishes(c, paying, 'settled', true);
      expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
    },
  });

  check({
    id: 'purchase.charge-processing-resumes',
    title: 'charge_processing, then the same credential resumes the original charge without asking earlier checks again',
    requirements: ids(E.charge_processing, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend', 'clock-control');
      const b = await buyer(c, 'processing');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = cardPayment(offer.echo, paying, offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
      // Buying closes, the terms move on and the challenge expires: none of it is asked of the charge already sent.
      await arrange(target, c, { state: AGENT_STATES.mppDisabled, agent: b.agentUrl });
      await arrange(target, c, { state: AGENT_STATES.termsChanged, agent: b.agentUrl });
      await b.advance(600);
      await processorFinishes(c, paying, 'settled');
      expectGranted(await b.post({ headers }));
    },
  });

  check({
    id: 'purchase.resumed-not-asked-again',
    title: "a charge sent, then the card's market closed and the agent at its cap: the same credential is granted",
    requirements: ids(P.resumeSameCredential, E.purchases_unavailable_region, E.ownerless_balance_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'resumed-unchanged');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = cardPayment(offer.echo, paying, offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
      // Section 3: "earlier checks (card capacity, terms version, re-pricing, caps, market closure) are not asked again".
      await arrange(target, c, { state: AGENT_STATES.marketClosed, agent: b.agentUrl });
      await arrange(target, c, { state: AGENT_STATES.ownerlessAtCap, agent: b.agentUrl });
      await processorFinishes(c, paying, 'settled');
      expectGranted(await b.post({ headers }));
      // The deployment is in those states: a new purchase of the agent is refused by one of them.
      const next = await payable(c, b);
      const refused = await b.post({ headers: cardPayment(next.echo, token('settled'), next.version) });
      expectPaidAnswerOf(
        'a new purchase once the market closed and the agent is at its cap',
        refused,
        refused.refusal === E.ownerless_balance_cap.code ? E.ownerless_balance_cap : E.purchases_unavailable_region,
      );
    },
  });

  check({
    id: 'purchase.charge-processing-503',
    title: 'a charge still processing: 503 charge_processing, again while it is',
    requirements: ids(E.charge_processing, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'processing-503');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('processing'), offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
      // The same credential resumes the same charge, which the processor still reports processing (no fresh challenge, no grant).
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
    },
  });

  check({
    id: 'purchase.resume-unauthenticated',
    title: "a processing charge's credential presented unsigned credits nothing",
    requirements: ids(E.terms_acceptance_unauthenticated, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'resume-unsigned');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('processing'), offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
      // Section 3 resumes the charge "Always"; the 401 row takes acceptance only from the buying agent: either answer fits.
      const again = await b.post({ signed: false, headers });
      if (again.status === 401) expectAcceptanceUnauthenticated(again);
      else expectPaidAnswerOf('the same credential, unauthenticated', again, E.charge_processing);
      // Nothing was credited: signed, the same credential is still the charge processing (a credit would be 409 purchase_already_granted).
      expectPaidAnswerOf('the same credential signed again', await b.post({ headers }), E.charge_processing);
    },
  });

  check({
    id: 'purchase.call-charge-not-resumed-here',
    title: "a single call's credential whose charge was sent is not resumed as a pack",
    requirements: ids(E.challenge_kind_mismatch, E.challenge_origin_mismatch, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'call-at-pack');
      // A signed agent asks for a single call with Service-Purchase: exact, covered (READING-PURCHASE-KIND-DEFAULT).
      const priced = target.pricedResources?.path ?? c.notRun('the target names no priced single-call resource');
      const asked = await b.post({ path: priced, headers: { [HEADERS.purchase]: PURCHASE_KINDS.exact } });
      if (asked.status === 404) c.notRun(`the target serves no priced single-call resource at ${priced}`);
      const offer = challengeOf(asked);
      await mayPay(c, offer);
      const headers = cardPayment(offer.echo, token('processing'), offer.version);
      expectPaidAnswer(await b.post({ path: priced, headers }), E.charge_processing);
      // 7.4: a single-call challenge is redeemed only where issued, and a call challenge is not a pack's.
      const here = await b.post({ headers });
      expectPaidAnswerOf(
        `the call's credential at ${PLATFORM_ROUTES.mppCredits}`,
        here,
        here.refusal === E.challenge_origin_mismatch.code ? E.challenge_origin_mismatch : E.challenge_kind_mismatch,
      );
      // The charge was not resumed as a pack: where it was sent, the credential is still that charge, processing.
      expectPaidAnswerOf(`the call's credential at ${priced} again`, await b.post({ path: priced, headers }), E.charge_processing);
    },
  });

  check({
    id: 'purchase.forged-echo-after-charge',
    title: 'a charged token under an altered echo is not that credential: 402 invalid-challenge',
    requirements: ids(P.challengeShape, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'forged-after-charge');
      const offer = await payable(c, b);
      const paying = token('processing');
      expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, paying, offer.version) }), E.charge_processing);
      const forged = { ...offer.echo, realm: `${offer.echo.realm}.example` };
      expectPaidAnswerOf('the realm changed', await b.post({ headers: cardPayment(forged, paying, offer.version) }), PAYMENT_PROBLEMS.invalidChallenge);
    },
  });

  check({
    id: 'purchase.charge-outcome-unknown-503',
    title: "a charge whose outcome is unknown: 503 charge_outcome_unknown, the buyer's next purchase waits",
    requirements: ids(E.charge_outcome_unknown, E.purchase_in_flight, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'unknown-503');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('unknown'), offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
      // A charge sent whose outcome is unknown is still settling: another challenge's credential waits for it.
      const other = await payable(c, b);
      expectPaidAnswerOf(
        "another challenge's credential meanwhile",
        await b.post({ headers: cardPayment(other.echo, token('settled'), other.version) }),
        E.purchase_in_flight,
      );
      // Asked again, the processor knows the charge (still processing) or still cannot tell: either is that charge's 503.
      const again = await b.post({ headers });
      const code = errorCodeOf(again.body);
      expect([E.charge_outcome_unknown.code, E.charge_processing.code], `the same credential again: ${again.status} ${String(code)}`).toContain(code);
      expectPaidAnswer(again, code === E.charge_processing.code ? E.charge_processing : E.charge_outcome_unknown);
    },
  });

  check({
    id: 'purchase.charge-outcome-unknown-completes',
    title: 'charge_outcome_unknown, then the same credential completes the same charge once',
    requirements: ids(E.charge_outcome_unknown, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'unknown');
      const offer = await payable(c, b);
      const paying = token('unknown');
      const headers = cardPayment(offer.echo, paying, offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
      await processorFinishes(c, paying, 'settled');
      expectGranted(await b.post({ headers }));
    },
  });

  check({
    id: 'purchase.settlement-credited-once',
    title: 'a settlement reported twice is credited once',
    requirements: ids(P.settledCreditedOnce, E.purchase_already_granted),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'reported');
      const offer = await payable(c, b);
      const paying = token('processing');
      const headers = cardPayment(offer.echo, paying, offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_processing);
      await processorFinishes(c, paying, 'settled', true);
      await processorFinishes(c, paying, 'settled', true);
      expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
    },
  });

  check({
    id: 'purchase.grant-failed',
    title: 'paid but not credited: 503 grant_failed; the same credential credits once',
    requirements: ids(E.grant_failed, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'grant-failed');
      const offer = await payable(c, b);
      const headers = cardPayment(offer.echo, token('settled'), offer.version);
      await arrange(target, c, { state: AGENT_STATES.grantFails, agent: b.agentUrl });
      expectPaidAnswer(await b.post({ headers }), E.grant_failed);
      expectGranted(await b.post({ headers }));
    },
  });

  check({
    id: 'purchase.one-charge-settling-at-a-time',
    title: 'while one charge of the buyer settles, another credential is 503 purchase_in_flight',
    requirements: ids(E.purchase_in_flight, P.settledCreditedOnce, P.resumeSameCredential),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'in-flight');
      const first = await payable(c, b);
      const paying = token('processing');
      expectPaidAnswer(await b.post({ headers: cardPayment(first.echo, paying, first.version) }), E.charge_processing);
      const second = await payable(c, b);
      const secondHeaders = cardPayment(second.echo, token('settled'), second.version);
      expectPaidAnswer(await b.post({ headers: secondHeaders }), E.purchase_in_flight);
      await processorFinishes(c, paying, 'settled', true);
      expectGranted(await b.post({ headers: secondHeaders }));
    },
  });

  check({
    id: 'purchase.same-credential-race-at-challenge',
    title: 'one card credential presented several times at once: one purchase, credited once',
    requirements: ids(P.resumeSameCredential, P.settledCreditedOnce, E.purchase_already_granted),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (let race = 0; race < RACES; race++) {
        const b = await buyer(c, `race-at-challenge-${race}`);
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        expectOnePurchase(await presentAtOnce(() => b.post({ headers })));
        expectPaidAnswerOf('the credential presented once more', await b.post({ headers }), E.purchase_already_granted);
      }
    },
  });

  check({
    id: 'purchase.same-credential-race-at-record',
    title: 'a credential whose charge settled at the processor, presented several times at once: credited once',
    requirements: ids(P.resumeSameCredential, P.settledCreditedOnce, E.purchase_already_granted, E.charge_processing),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (let race = 0; race < RACES; race++) {
        const b = await buyer(c, `race-at-record-${race}`);
        const offer = await payable(c, b);
        const paying = token('processing');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        await processorFinishes(c, paying, 'settled');
        expectOnePurchase(await presentAtOnce(() => b.post({ headers })));
        expectPaidAnswerOf('the credential presented once more', await b.post({ headers }), E.purchase_already_granted);
      }
    },
  });

  check({
    id: 'purchase.charge-call-fault',
    title: 'a charge whose answer was lost is 503 charge_outcome_unknown, completed once later',
    requirements: ids(E.charge_outcome_unknown, E.purchase_in_flight, P.resumeSameCredential, P.settledCreditedOnce),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'charge-fault');
      const first = await payable(c, b);
      const paying = token('processing');
      const headers = cardPayment(first.echo, paying, first.version);
      // The charge reaches the processor, whose answer is lost on the way back.
      await arrange(target, c, { state: TOKEN_STATES.chargeAnswerLost, token: paying });
      expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
      const second = await payable(c, b);
      expectPaidAnswer(await b.post({ headers: cardPayment(second.echo, token('settled'), second.version) }), E.purchase_in_flight);
      await processorFinishes(c, paying, 'settled');
      expectGranted(await b.post({ headers }));
    },
  });

  check({
    id: 'purchase.same-transfer-race-at-challenge',
    title: 'one stablecoin credential presented several times at once: credited once',
    requirements: ids(P.resumeSameCredential, P.settledCreditedOnce, E.purchase_already_granted),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (let race = 0; race < RACES; race++) {
        const b = await buyer(c, `transfer-race-${race}`);
        const headers = await stablecoinPayment(await b.post({ headers: PREFER_TEMPO }));
        expectOnePurchase(await presentAtOnce(() => b.post({ headers })));
        expectPaidAnswerOf('the credential presented once more', await b.post({ headers }), E.purchase_already_granted);
      }
    },
  });

  check({
    id: 'purchase.same-transfer-race-at-lock',
    title: 'a stablecoin credential whose transfer is still settling, presented several times at once: credited once',
    requirements: ids(P.resumeSameCredential, P.settledCreditedOnce, E.purchase_already_granted, E.tempo_settlement_pending),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      for (let race = 0; race < RACES; race++) {
        const b = await buyer(c, `transfer-race-pending-${race}`);
        const headers = await stablecoinPayment(await b.post({ headers: PREFER_TEMPO }));
        await arrange(target, c, { state: AGENT_STATES.transferPending, agent: b.agentUrl });
        expectPaidAnswer(await b.post({ headers }), E.tempo_settlement_pending);
        expectOnePurchase(await presentAtOnce(() => b.post({ headers })));
        expectPaidAnswerOf('the credential presented once more', await b.post({ headers }), E.purchase_already_granted);
      }
    },
  });

  check({
    id: 'purchase.outcome-unknown-settlement-credited',
    title: 'a reported settlement of an unknown outcome is credited once',
    requirements: ids(P.settledCreditedOnce, E.charge_outcome_unknown, E.purchase_already_granted),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'unknown-reported');
      const offer = await payable(c, b);
      const paying = token('unknown');
      const headers = cardPayment(offer.echo, paying, offer.version);
      expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
      // The deployment never learned the charge's id; the report names it and the token it was paid with.
      await processorFinishes(c, paying, 'settled', true);
      expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
    },
  });
});
