import { describe, expect, it } from 'vitest';
import { settleReported } from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { REFUND_STATES } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, PACK_NANO, World, expectCode, expectGranted, paid, twice } from './helpers.js';

const OWNER_KEY = 'rk_operator_1';

describe('refusals before a card charge (7.4): nothing is charged', () => {
  it('403 purchases_unavailable_region when the card market is closed', async () => {
    const world = new World([], { closedMarkets: ['FR'] });
    world.processor.countries.set('spt_fr', 'fr');
    expectCode(await world.decide(paid(await world.challenge(), 'spt_fr')), PURCHASE_ERRORS.purchases_unavailable_region);
    expect(world.processor.chargeCalls()).toBe(0);
    expectGranted(await world.decide(paid(await world.challenge(), 'spt_us')), PACK_NANO, 'pi_1');
  });

  it("403 purchases_unavailable_region when the card's country cannot be established", async () => {
    const world = new World([], { closedMarkets: [] });
    world.processor.defaultCountry = undefined;
    expectCode(await world.decide(paid(await world.challenge())), PURCHASE_ERRORS.purchases_unavailable_region);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('403 ownerless_balance_cap for an ownerless agent at the cap, unless a covered owner key claims it', async () => {
    const world = new World([], { ownerlessBalanceCapNano: PACK_NANO, ownerKeys: [OWNER_KEY] });
    world.buyers.ownerless.add(BUYER);
    expectGranted(await world.decide(paid(await world.challenge(), 'spt_1')), PACK_NANO, 'pi_1');
    expectCode(await world.decide(paid(await world.challenge(), 'spt_2')), PURCHASE_ERRORS.ownerless_balance_cap);
    expect(world.processor.chargeCalls()).toBe(1);

    const uncovered = await world.decide({ ...paid(await world.challenge(), 'spt_3'), [HEADERS.ownerKey]: OWNER_KEY });
    expectCode(uncovered, PURCHASE_ERRORS.ownerless_balance_cap);
    const covered = world.request({ ...paid(await world.challenge(), 'spt_4'), [HEADERS.ownerKey]: OWNER_KEY });
    const claimed = await world.decideRequest({ ...covered, coveredHeaders: [...covered.coveredHeaders, HEADERS.ownerKey] });
    expectGranted(claimed, twice(PACK_NANO), 'pi_2');
  });

  it('503 payment_unreconciled (refund state in the body) for a token whose payment matched nothing sold', async () => {
    const world = new World();
    world.processor.refundState = REFUND_STATES.pending;
    expect(await settleReported({ chargeId: 'pi_stray', token: 'spt_stray' }, world.ports)).toEqual({
      credited: false,
      reason: 'unmatched',
      refund: REFUND_STATES.pending,
    });
    expect(world.processor.refunds).toEqual(['pi_stray']);
    const answer = await world.decide(paid(await world.challenge(), 'spt_stray'));
    expectCode(answer, PURCHASE_ERRORS.payment_unreconciled);
    expect(answer.body.refund).toBe(REFUND_STATES.pending);
    expect(world.processor.chargeCalls()).toBe(0);
  });
});

describe('one purchase at a time per buyer (7.4 503s with the same credential)', () => {
  it('503 purchase_lock_unavailable when the lock is down; the same credential then completes', async () => {
    const world = new World();
    const headers = paid(await world.challenge());
    world.lock.unavailable = true;
    expectCode(await world.decide(headers), PURCHASE_ERRORS.purchase_lock_unavailable);
    expect(world.processor.chargeCalls()).toBe(0);
    world.lock.unavailable = false;
    expectGranted(await world.decide(headers), PACK_NANO, 'pi_1');
  });

  it('503 purchase_in_flight while another presentation holds the lock; released after', async () => {
    const world = new World();
    const headers = paid(await world.challenge());
    world.lock.hold(BUYER);
    expectCode(await world.decide(headers), PURCHASE_ERRORS.purchase_in_flight);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('503 purchase_in_flight while another charge of the buyer is still settling; the lock is released', async () => {
    const world = new World(['processing']);
    const first = paid(await world.challenge(), 'spt_1');
    expectCode(await world.decide(first), PURCHASE_ERRORS.charge_processing);
    expectCode(await world.decide(paid(await world.challenge(), 'spt_2')), PURCHASE_ERRORS.purchase_in_flight);
    expect(world.lock.isHeld(BUYER)).toBe(false);
    world.processor.resolve('pi_1', 'settled');
    expectGranted(await world.decide(first), PACK_NANO, 'pi_1');
  });

  it('503 terms_record_failed when assent cannot be recorded: nothing charged, the same credential completes after', async () => {
    const world = new World();
    const headers = paid(await world.challenge());
    world.store.failAssent = true;
    expectCode(await world.decide(headers), PURCHASE_ERRORS.terms_record_failed);
    expect(world.processor.chargeCalls()).toBe(0);
    expect(world.lock.isHeld(BUYER)).toBe(false);
    world.store.failAssent = false;
    expectGranted(await world.decide(headers), PACK_NANO, 'pi_1');
    expect(world.store.allAssents()).toHaveLength(1);
  });
});
