import { describe, expect, it } from 'vitest';
import type { PaymentChallenge, SaleOutcome } from '../../../src/purchase/index.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, TERMS_URL, NEXT_VERSION, expectCode, oneChallenge, paid } from '../machine/helpers.js';
import { CALL_NANO, SaleWorld, answer, bodyJson, expectCall } from './helpers.js';

async function callChallenge(world: SaleWorld): Promise<PaymentChallenge> {
  return oneChallenge(answer(await world.decide()));
}

/** The receipt a 409 carries names the charge. */
function expectReceipt(outcome: SaleOutcome, chargeId: string): void {
  expect(answer(outcome).body.receipt).toMatchObject({ method: 'stripe', reference: chargeId, status: 'success' });
}

describe('the same credential presented again (section 3)', () => {
  it('409 call_already_served with the receipt, nothing charged or served again', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world);
    expectCall(await world.decide(paid(challenge)), 200, { chargeId: 'pi_1' });
    const again = await world.decide(paid(challenge));
    expectCode(answer(again), PURCHASE_ERRORS.call_already_served);
    expectReceipt(again, 'pi_1');
    expect(world.processor.chargeCalls()).toBe(1);
    expect(world.server.ran).toHaveLength(1);
  });

  it('409 call_in_progress while the call is being served from an earlier presentation', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world);
    let during: SaleOutcome | undefined;
    world.server.during = async () => {
      during = await world.decide(paid(challenge));
    };
    expectCall(await world.decide(paid(challenge)), 200, { chargeId: 'pi_1' });
    expectCode(answer(during!), PURCHASE_ERRORS.call_in_progress);
    expectReceipt(during!, 'pi_1');
    expect(world.server.ran).toHaveLength(1);
  });

  it('a failed call is refunded to the card (the credit leaves with it): the resource answer, then 409 call_refunded', async () => {
    const world = new SaleWorld({ serves: ['failed'] });
    const challenge = await callChallenge(world);
    const failed = expectCall(await world.decide(paid(challenge)), 502, { chargeId: 'pi_1' });
    expect(bodyJson(failed)).toEqual({ failed: 1 });
    expect(world.processor.refunds).toEqual(['pi_1']);
    expect(world.available()).toBe('0');
    expect(world.sales.sale(challenge.id)).toMatchObject({ state: 'refunded', refund: 'issued' });
    const again = await world.decide(paid(challenge));
    expectCode(answer(again), PURCHASE_ERRORS.call_refunded);
    expectReceipt(again, 'pi_1');
    expect(world.server.ran).toHaveLength(1);
  });

  it('when the processor cannot refund, the call is refunded onto the balance, and the next call is paid from it', async () => {
    const world = new SaleWorld({ serves: ['failed'] });
    world.processor.refund = () => {
      throw new Error('processor down');
    };
    const challenge = await callChallenge(world);
    expectCall(await world.decide(paid(challenge)), 502, { chargeId: 'pi_1' });
    expect(world.sales.sale(challenge.id)).toMatchObject({ state: 'refunded', refund: 'balance' });
    expect(world.available()).toBe(CALL_NANO);
    expectCall(await world.decide(), 200, null);
    expect(world.available()).toBe('0');
  });

  it('a server that throws: whether the call started is unknown, so it is refunded and never run again (409 call_refunded)', async () => {
    const world = new SaleWorld({ serves: ['throw'] });
    const challenge = await callChallenge(world);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.call_refunded);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.call_refunded);
    expect(world.server.ran).toHaveLength(1);
  });

  it('503 sale_serve_pending when the call did not start; the same credential serves it once, skipping every earlier check', async () => {
    const world = new SaleWorld({ serves: ['not-started', 'not-started'] });
    const challenge = await callChallenge(world);
    const pending = answer(await world.decide(paid(challenge)));
    expectCode(pending, PURCHASE_ERRORS.sale_serve_pending);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.sale_serve_pending);
    // Switches, terms, price, caps, card sales and expiry changed since: none is asked again.
    world.clock.advance(3600);
    world.config = {
      ...world.config,
      mppEnabled: false,
      purchasesOpen: false,
      terms: { url: TERMS_URL, version: NEXT_VERSION },
      sale: {
        ...world.config.sale,
        cardOpen: false,
        price: { amount: '99', currency: 'usd' },
        caps: { principalPerDay: 0, ipPerDay: 0, instrumentPerDay: 0, platformPerDay: 0 },
      },
    };
    expectCall(await world.decide(paid(challenge)), 200, { chargeId: 'pi_1' }, NEXT_VERSION);
    expect(world.server.ran).toHaveLength(1);
    expect(world.processor.chargeCalls()).toBe(1);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.call_already_served);
  });

  it('503 charge_processing and charge_outcome_unknown resume the same charge; the call is served once it settles', async () => {
    const world = new SaleWorld({ charges: ['processing', { reply: 'throw', actual: 'processing' }] });
    const first = await callChallenge(world);
    expectCode(answer(await world.decide(paid(first, 'spt_1'))), PURCHASE_ERRORS.charge_processing);
    expectCode(answer(await world.decide(paid(first, 'spt_1'))), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', 'settled');
    expectCall(await world.decide(paid(first, 'spt_1')), 200, { chargeId: 'pi_1' });

    const second = await callChallenge(world);
    expectCode(answer(await world.decide(paid(second, 'spt_2'))), PURCHASE_ERRORS.charge_outcome_unknown);
    world.processor.resolve('pi_2', 'settled');
    expectCall(await world.decide(paid(second, 'spt_2')), 200, { chargeId: 'pi_2' });
    expect(world.processor.chargeCalls()).toBe(3);
    expect(world.processor.charges.size).toBe(2);
    expect(world.server.ran).toHaveLength(2);
  });

  it('503 grant_failed when the credit cannot be recorded; the same credential credits once and serves', async () => {
    const world = new SaleWorld();
    world.store.failGrants = 1;
    const challenge = await callChallenge(world);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.grant_failed);
    expect(world.server.ran).toEqual([]);
    expectCall(await world.decide(paid(challenge)), 200, { chargeId: 'pi_1' });
    expect(world.store.balance(BUYER)).toBe(CALL_NANO);
  });

  it('503 grant_failed again when the resumed credit cannot be recorded either; the third presentation credits once and serves', async () => {
    const world = new SaleWorld();
    world.store.failGrants = 2;
    const challenge = await callChallenge(world);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.grant_failed);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.grant_failed);
    expect(world.server.ran).toEqual([]);
    expectCall(await world.decide(paid(challenge)), 200, { chargeId: 'pi_1' });
    expect(world.store.balance(BUYER)).toBe(CALL_NANO);
  });

  it('503 funding_failed with the purchase block when the credited call cannot be funded; then 409 purchase_already_granted; the balance pays the resend', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world);
    world.funding.failHold = true;
    const failed = answer(await world.decide(paid(challenge)));
    expectCode(failed, PURCHASE_ERRORS.funding_failed);
    expect(failed.body.purchase).toMatchObject({
      granted: true,
      packId: 'call_echo',
      paymentIntentId: 'pi_1',
      balance: { nano: CALL_NANO },
      receipt: { reference: 'pi_1' },
    });
    expect(world.server.ran).toEqual([]);
    world.funding.failHold = false;
    const again = await world.decide(paid(challenge));
    expectCode(answer(again), PURCHASE_ERRORS.purchase_already_granted);
    expectReceipt(again, 'pi_1');
    expectCall(await world.decide(), 200, null);
    expect(world.server.ran).toHaveLength(1);
    expect(world.processor.chargeCalls()).toBe(1);
  });

  it('only the agent the challenge names resumes its sale: 401 for another agent, nothing served', async () => {
    const world = new SaleWorld({ serves: ['not-started'] });
    const challenge = await callChallenge(world);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.sale_serve_pending);
    expectCode(
      answer(await world.decide(paid(challenge), { buyer: { agentUrl: 'https://other.agent.example/' } })),
      PURCHASE_ERRORS.terms_acceptance_unauthenticated,
    );
    expect(world.server.ran).toEqual([]);
  });

  it('503 purchase_in_flight while another purchase of this agent is settling (one at a time), as on the pack side', async () => {
    const world = new SaleWorld({ charges: ['processing'] });
    const first = await callChallenge(world);
    expectCode(answer(await world.decide(paid(first, 'spt_1'))), PURCHASE_ERRORS.charge_processing);
    expectCode(answer(await world.decide(paid(await callChallenge(world), 'spt_2'))), PURCHASE_ERRORS.purchase_in_flight);
    expect(world.processor.chargeCalls()).toBe(1);
  });
});
