import { describe, expect, it } from 'vitest';
import { settleReported, type PurchasePorts } from '../../../src/purchase/index.js';
import { PAYMENT_CREDENTIAL_HEADER } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, PACK_NANO, oneChallenge } from '../machine/helpers.js';
import { BUYERS, ModelWorld, TOKENS, type Presentation } from './world.js';

/**
 * Counterexamples the model-based property found, kept as plain tests.
 *
 * 1. A card charge whose call faulted after it reached the processor (the machine never learned its id), then
 *    a settlement report that names the charge id and the token it was paid with but not the idempotency key.
 *    settle.ts finds no record by id, so it refunds the payment as unmatched (7.4 payment_unreconciled); the
 *    buyer then re-presents the same credential, as 503 charge_outcome_unknown told it to, and the resumed
 *    charge (by idempotency key) is settled: the pack is credited as well. The buyer keeps both the refund and
 *    the usage. The store knows the token opened a charge (openCharge records it), so a charge paid with a
 *    token the machine sold against is not unmatched.
 *    fast-check counterexample: [present(challenge 0, token 0, buyer 0, covered, reply {throw, actual settled}),
 *    report(0, byKey false, withToken true), repeat(0)].
 *
 * 2. Two presentations of one credential racing: the second passes decide.ts's resume check (step 1) before the
 *    first opens the charge record, then reaches step 7 after it did, where any charge under the challenge is
 *    taken for "already redeemed with another payment": 402 invalid-challenge with a fresh challenge, telling
 *    the buyer to pay again while its charge is in flight. Section 3 row 1: the same credential presented again
 *    resumes the original charge, always. Step 7 should resume when the record's token is the credential's (as
 *    openAndCharge already does for the clash it sees). Since issue 27 the challenge guard judges the charge the
 *    same-credential guard read (one read per presentation); a charge opened since is met by the record guard's
 *    atomic open, which resumes it: the same answer.
 *    Found by the scheduler property (concurrent.test.ts), one credential presented 2-5 times at once.
 */
describe('regressions found by the card pack model', () => {
  it('a settlement reported by charge id and token (no idempotency key) for a charge whose id the machine never learned is credited once and never refunded', async () => {
    const world = new ModelWorld();
    world.processor.enqueue({ reply: 'throw', actual: 'settled' });
    const challenge = oneChallenge(await world.decide(null));
    const p: Presentation = { challenge, token: TOKENS[0], buyer: BUYERS[0], authenticated: true, assent: 'covered' };

    const first = await world.decide(p);
    expect(first.status).toBe(PURCHASE_ERRORS.charge_outcome_unknown.status);
    expect('code' in first && first.code).toBe(PURCHASE_ERRORS.charge_outcome_unknown.code);
    const charge = world.processor.chargeFor(world.store.chargeOf(challenge.id)!.idempotencyKey)!;
    expect(charge.state).toBe('settled');

    const result = await settleReported({ chargeId: charge.chargeId, token: charge.token }, world.ports);
    const again = await world.decide(p);

    // Whatever the report and the re-presentation answer, the payment ends either credited or refunded, never both.
    const credited = world.store.balance(BUYER) === PACK_NANO;
    const refunded = world.processor.refunds.includes(charge.chargeId);
    expect({ credited, refunded }).toEqual({ credited: true, refunded: false });
    // The report matched the sale, so it credited the pack; the credential presented again is 409 (section 3).
    expect(result.credited ? 'credited' : result.reason).toBe('credited');
    expect({ status: again.status, code: 'code' in again ? again.code : undefined }).toEqual({
      status: PURCHASE_ERRORS.purchase_already_granted.status,
      code: PURCHASE_ERRORS.purchase_already_granted.code,
    });
  });

  it('a presentation racing the first presentation of the same credential resumes its charge instead of answering 402 invalid-challenge', async () => {
    const base = new ModelWorld();
    base.processor.enqueue('processing');
    // The second presentation's first look-up of its challenge (decide.ts step 7) waits until the first presentation is done.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let gated = false;
    const store = new Proxy(base.store, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (prop !== 'challenge') return method.bind(target);
        return async (...args: unknown[]) => {
          if (!gated) {
            gated = true;
            await gate;
          }
          return method.apply(target, args);
        };
      },
    });
    const ports: PurchasePorts = { ...base.ports, store };
    const world = Object.assign(Object.create(ModelWorld.prototype) as ModelWorld, base, { ports });
    const challenge = oneChallenge(await base.decide(null));
    const p: Presentation = { challenge, token: TOKENS[0], buyer: BUYERS[0], authenticated: true, assent: 'covered' };

    const second = world.decide(p);
    const first = await world.decide(p);
    open();
    const raced = await second;

    expect('code' in first && first.code).toBe(PURCHASE_ERRORS.charge_processing.code);
    expect(base.processor.charges.size).toBe(1);
    // The racing presentation is told to re-present the same credential (its charge is processing), not to pay again.
    expect({ status: raced.status, retry: raced.body.retry }).toEqual({
      status: 503,
      retry: { sameCredential: true, credentialHeader: PAYMENT_CREDENTIAL_HEADER },
    });
  });
});
