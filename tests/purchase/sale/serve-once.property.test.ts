import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideSale, isCallAnswer, type CardProcessor, type SaleOutcome, type SalePorts } from '../../../src/purchase/index.js';
import type { ScriptedCharge, ScriptedServe } from '../../../src/purchase/testing/index.js';
import { PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { expectCode, oneChallenge, paid } from '../machine/helpers.js';
import { SaleWorld, answer } from './helpers.js';

/** Every 7.4 code a presentation of a bought call may answer with (the 402 verification-failed aside). */
const CODES_AFTER_PAYMENT = [
  PURCHASE_ERRORS.call_in_progress,
  PURCHASE_ERRORS.call_already_served,
  PURCHASE_ERRORS.call_refunded,
  PURCHASE_ERRORS.purchase_already_granted,
  PURCHASE_ERRORS.purchase_in_flight,
  PURCHASE_ERRORS.charge_processing,
  PURCHASE_ERRORS.charge_outcome_unknown,
  PURCHASE_ERRORS.sale_serve_pending,
  PURCHASE_ERRORS.funding_failed,
];

/** An answer that leaves the buyer a correct next step: the call's own response, a fresh challenge after a decline, or a 7.4 row with its retry object. */
function expectKnown(outcome: SaleOutcome): void {
  if (isCallAnswer(outcome)) {
    expect([200, 502]).toContain(outcome.status);
    return;
  }
  if (outcome.status === 402) {
    expect(outcome.code).toBe(PAYMENT_PROBLEMS.verificationFailed.slug);
    oneChallenge(outcome);
    return;
  }
  const record = CODES_AFTER_PAYMENT.find((r) => r.code === outcome.code);
  expect(record, `unexpected ${outcome.status} ${outcome.code}`).toBeDefined();
  expectCode(outcome, record!);
}

const charges = fc.constantFrom<ScriptedCharge>(
  'settled',
  'declined',
  'processing',
  'unknown',
  'throw',
  { reply: 'throw', actual: 'settled' },
  { reply: 'unknown', actual: 'settled' },
);
const serves = fc.array(fc.constantFrom<ScriptedServe>('served', 'not-started', 'failed', 'throw'), { maxLength: 4 });

describe('property: one credential presented concurrently', () => {
  it('is charged at most once and its call served at most once, whatever the interleaving; every answer has a next step', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 2, max: 5 }),
        charges,
        serves,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        async (s, presentations, charge, serveScript, unidentified, burstFirst, settleBetween) => {
          const world = new SaleWorld({ charges: [charge], serves: serveScript });
          const inner = world.processor;
          const later = <T>(run: () => T | Promise<T>): Promise<T> => s.schedule(Promise.resolve()).then(run);
          const processor: CardProcessor = {
            charge: (token, amount, key) => later(() => inner.charge(token, amount, key)),
            status: (id) => later(() => inner.status(id)),
            instrumentCountry: (token) => inner.instrumentCountry(token),
            refund: (id) => later(() => inner.refund(id)),
          };
          const ports: SalePorts = { ...world.ports, processor, server: { serve: (call) => later(() => world.server.serve(call)) } };
          const ask = unidentified ? world.anonymous() : world.decide();
          const challenge = oneChallenge(answer(await ask));
          const credential = paid(challenge);
          const request = () => {
            const base = world.request(credential);
            if (!unidentified) return base;
            const { identity: _none, ...rest } = { ...base, buyer: null, signed: false, coveredHeaders: [] };
            return rest;
          };

          // A first presentation opens the charge (a later burst takes the resume path, which no lock serialises);
          // or, with `burstFirst`, the burst itself races for the buyer's lock.
          const answers: SaleOutcome[] = burstFirst ? [] : [await s.waitFor(decideSale(request(), ports, world.config))];
          if (settleBetween) for (const c of inner.charges.values()) if (c.state === 'processing') inner.resolve(c.chargeId, 'settled');
          const burst = Array.from({ length: presentations }, () => decideSale(request(), ports, world.config));
          answers.push(...(await s.waitFor(Promise.all(burst))));

          // Then the buyer follows the answers: the processor settles what it held, and the credential is re-presented.
          for (const c of inner.charges.values()) if (c.state === 'processing') inner.resolve(c.chargeId, 'settled');
          for (let i = 0; i < 4; i++) {
            answers.push(await s.waitFor(decideSale(request(), ports, world.config)));
          }

          for (const outcome of answers) expectKnown(outcome);
          expect(inner.charges.size).toBeLessThanOrEqual(1);
          expect(world.server.servedUnder(challenge.id)).toBeLessThanOrEqual(1);
          const served = answers.filter((a) => isCallAnswer(a) && a.status === 200);
          expect(served.length).toBe(world.sales.sale(challenge.id)?.state === 'served' ? 1 : 0);
          if (served.length === 1) expect(world.server.servedUnder(challenge.id)).toBe(1);
          // A settled charge is credited exactly once.
          const settled = [...inner.charges.values()].filter((c) => c.state === 'settled');
          expect(world.store.allGrants().length).toBeLessThanOrEqual(settled.length);
          for (const grant of world.store.allGrants()) expect(settled.map((c) => c.chargeId)).toContain(grant.chargeId);
          // Money is never lost: what was credited is spent by a served call, refunded, or still on the payer's balance.
          const sale = world.sales.sale(challenge.id);
          if (sale !== undefined && world.store.grantOf(challenge.id) !== undefined) {
            const onBalance = BigInt(world.funding.available(sale.payer));
            if (sale.state === 'served' || (sale.state === 'refunded' && sale.refund !== 'balance')) expect(onBalance).toBe(0n);
            else expect(onBalance + world.funding.total(sale.payer, 'held')).toBe(BigInt(sale.priceNano));
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
