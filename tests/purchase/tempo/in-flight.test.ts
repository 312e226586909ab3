import { describe, expect, it } from 'vitest';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { T0, expectCode, paid } from '../machine/helpers.js';
import { TempoWorld, expectFresh402, paidTempo, quoteOf, signTransfer, transactionPayload } from './helpers.js';

/** 7.4 purchase_in_flight: one purchase at a time per buyer, whichever method the settling one was paid with. */
describe('one purchase at a time across methods', () => {
  it('a card purchase while a transfer of the same buyer is still settling: 503 purchase_in_flight, nothing charged', async () => {
    const world = new TempoWorld();
    world.network.pendingReads = 5;
    const tempo = await world.challenge();
    const serialized = await signTransfer(quoteOf(tempo), {}, T0 + 300);
    expectCode(await world.decide(paidTempo(tempo, transactionPayload(serialized))), PURCHASE_ERRORS.tempo_settlement_pending);

    const card = expectFresh402(
      await world.decide({ [HEADERS.paymentMethods]: PAYMENT_METHODS.stripe }),
      PAYMENT_PROBLEMS.paymentRequired,
      PAYMENT_METHODS.stripe,
    );
    expectCode(await world.decide(paid(card, 'spt_1')), PURCHASE_ERRORS.purchase_in_flight);
    expect(world.processor.chargeCalls()).toBe(0);
  });
});
