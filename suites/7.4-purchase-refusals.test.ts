import { afterAll, describe, expect } from 'vitest';
import { errorCodeOf } from '../src/harness/judge-purchase.js';
import { AGENT_STATES, type AgentState } from '../src/contract/test-control.js';
import { HEADERS } from '../src/spec/headers.js';
import { REFUND_STATES } from '../src/spec/payments.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { arrange, cardPayment, expectPaidAnswer, expectPaidAnswerOf, type PaidExchange } from './lib/buyer.js';
import { check } from './lib/check.js';
import { expectGranted, expectNoChallengeField, ids, packSuite, refundStateOf, token } from './lib/pack.js';
import { suiteTarget } from './lib/target.js';

/**
 * 7.4's refusals at POST /api/mpp/credits before anything is charged: the switches of the deployment, its markets,
 * the ownerless cap, the purchase lock, the terms record, a card of no known country, and a payment that matched
 * nothing sold. Live, a deployment is put in each state through its test control (--control-url).
 */
const target = suiteTarget();
afterAll(() => target.close());

const P = PURCHASE_REQUIREMENTS;
const E = PURCHASE_ERRORS;
const { need, buyer, payable, processorFinishes } = packSuite(target, 'purchase');

/**
 * "Nothing charged", as the wire shows it: the same credential presented again, the deployment still in its state, is
 * refused the same way. Had a charge been sent, section 3 resumes it, asking none of the earlier checks again.
 */
function expectNotCharged(again: PaidExchange, record: PurchaseErrorRecord): void {
  expectPaidAnswerOf('the same credential presented again (a charge sent would be resumed, section 3)', again, record);
}

describe(`7.4 refusals before anything is charged at POST /api/mpp/credits (${target.description})`, () => {
  const faults: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; state: AgentState }> = [
    {
      record: E.mpp_disabled,
      describe: 'buying is not open',
      state: AGENT_STATES.mppDisabled,
    },
    {
      record: E.purchases_disabled,
      describe: 'purchases are closed in every market',
      state: AGENT_STATES.purchasesDisabled,
    },
    {
      record: E.purchases_unavailable_region,
      describe: "the card's market is closed",
      state: AGENT_STATES.marketClosed,
    },
    {
      record: E.ownerless_balance_cap,
      describe: 'an ownerless agent at the cap',
      state: AGENT_STATES.ownerlessAtCap,
    },
    {
      record: E.purchase_lock_unavailable,
      describe: 'the purchase lock is down',
      state: AGENT_STATES.lockUnavailable,
    },
    {
      record: E.purchase_in_flight,
      describe: "another of the buyer's purchases is settling",
      state: AGENT_STATES.purchaseInFlight,
    },
    {
      record: E.terms_record_failed,
      describe: 'the assent cannot be recorded',
      state: AGENT_STATES.termsRecordFailed,
    },
  ];
  check({
    id: 'purchase.ownerless-claimed-by-owner-key',
    title: 'an operator key the deployment holds lifts the ownerless cap',
    requirements: ids(E.ownerless_balance_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'ownerless-claimed');
      const offer = await payable(c, b);
      const key = target.ownerKey ?? c.notRun('needs --owner-key: an operator key the deployment holds');
      await arrange(target, c, { state: AGENT_STATES.ownerlessAtCap, agent: b.agentUrl });
      const pay = (ownerKey: string) => ({ ...cardPayment(offer.echo, token('settled'), offer.version), [HEADERS.ownerKey]: ownerKey });
      expectPaidAnswer(await b.post({ headers: pay(`${key}-not-held`) }), E.ownerless_balance_cap);
      expectGranted(await b.post({ headers: pay(key) }));
    },
  });

  check({
    id: 'purchase.ownerless-cap-only-at-cap',
    title: 'ownerless_balance_cap refuses only an ownerless agent at its cap',
    requirements: ids(E.ownerless_balance_cap),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      // Every balance is at a cap of 0: an agent with an owner is not limited by it.
      const owned = await buyer(c, 'owned-over-cap');
      const first = await payable(c, owned);
      await arrange(target, c, { state: AGENT_STATES.ownedAtZeroCap, agent: owned.agentUrl });
      expectGranted(await owned.post({ headers: cardPayment(first.echo, token('settled'), first.version) }));
      // An ownerless agent, well under the cap.
      const ownerless = await buyer(c, 'ownerless-below-cap');
      const second = await payable(c, ownerless);
      await arrange(target, c, { state: AGENT_STATES.ownerlessBelowCap, agent: ownerless.agentUrl });
      expectGranted(await ownerless.post({ headers: cardPayment(second.echo, token('settled'), second.version) }));
    },
  });

  for (const fault of faults) {
    check({
      id: `purchase.${fault.record.code.replaceAll('_', '-')}`,
      title: `${fault.describe}: ${fault.record.status} ${fault.record.code}, nothing charged`,
      requirements: ids(fault.record, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, fault.record.code);
        const offer = await payable(c, b);
        await arrange(target, c, { state: fault.state, agent: b.agentUrl });
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const answer = await b.post({ headers });
        expectPaidAnswer(answer, fault.record);
        expectNoChallengeField(answer);
        expectNotCharged(await b.post({ headers }), fault.record);
      },
    });
  }

  check({
    id: 'purchase.unknown-card-country',
    title: 'a card whose country cannot be established: 403 purchases_unavailable_region, nothing charged',
    requirements: ids(E.purchases_unavailable_region, P.noChallengeOnCodes),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'unknown-country');
      const offer = await payable(c, b);
      const paying = token('settled');
      await arrange(target, c, { state: AGENT_STATES.cardCountryUnknown, agent: b.agentUrl });
      const headers = cardPayment(offer.echo, paying, offer.version);
      const answer = await b.post({ headers });
      expectPaidAnswer(answer, E.purchases_unavailable_region);
      expect(errorCodeOf(answer.body), 'the code').toBe(E.purchases_unavailable_region.code);
      expectNotCharged(await b.post({ headers }), E.purchases_unavailable_region);
    },
  });

  check({
    id: 'purchase.payment-unreconciled',
    title: 'a token whose payment matched nothing sold and was refunded: 503 payment_unreconciled with the refund state',
    requirements: ids(E.payment_unreconciled),
    level: 'MUST',
    run: async (c) => {
      need(c, 'spend');
      const b = await buyer(c, 'unreconciled');
      const offer = await payable(c, b);
      const stray = token('settled');
      await processorFinishes(c, stray, 'settled', true);
      const answer = await b.post({ headers: cardPayment(offer.echo, stray, offer.version) });
      expectPaidAnswer(answer, E.payment_unreconciled);
      // Live, the refund's state is the deployment's to tell: one of the two the spec names.
      const told = refundStateOf(answer.body);
      expect(Object.values(REFUND_STATES), 'the refund state: issued or pending').toContain(told);
    },
  });
});
