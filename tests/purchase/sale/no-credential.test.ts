import { describe, expect, it } from 'vitest';
import { decodeBase64urlJson } from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, PACK_NANO, expectCode, expectFresh402, expectGranted, paid } from '../machine/helpers.js';
import { CALL_NANO, CALL_PRICE, FUNDING_RETRY_AFTER, RESOURCE, SaleWorld, answer, bodyJson, expectCall } from './helpers.js';

const opaqueOf = (challenge: { opaque?: Readonly<Record<string, string>> }) => challenge.opaque ?? {};

describe('a priced single-call resource, no credential', () => {
  it('an unidentified caller gets a 402 sized to the call (not a 401), issued for this resource, naming no account', async () => {
    const world = new SaleWorld();
    const challenge = expectFresh402(answer(await world.anonymous()), PAYMENT_PROBLEMS.paymentRequired);
    expect(challenge.request).toMatchObject({ amount: CALL_PRICE.amount, currency: CALL_PRICE.currency });
    expect(opaqueOf(challenge).kind).toBe(PURCHASE_KINDS.exact);
    expect(opaqueOf(challenge).userId).toBeUndefined();
    expect(world.store.challenge(challenge.id)).toMatchObject({ kind: PURCHASE_KINDS.exact, origin: RESOURCE, creditNano: CALL_NANO });
    expect(world.server.ran).toEqual([]);
  });

  it('503 metered_not_ready for an unidentified caller while such calls are not sold', async () => {
    const world = new SaleWorld({ sale: { anonymous: false } });
    expectCode(answer(await world.anonymous()), PURCHASE_ERRORS.metered_not_ready);
  });

  it('a signed agent sending Service-Purchase exact gets a challenge sized to the call, naming its account', async () => {
    const world = new SaleWorld({ sale: { defaultKind: PURCHASE_KINDS.pack } });
    const challenge = expectFresh402(answer(await world.decide({ [HEADERS.purchase]: 'exact' })), PAYMENT_PROBLEMS.paymentRequired);
    expect(challenge.request).toMatchObject({ amount: CALL_PRICE.amount });
    expect(opaqueOf(challenge)).toMatchObject({ kind: PURCHASE_KINDS.exact, userId: BUYER });
  });

  it('Service-Purchase pack gets the pack, redeemed at /api/mpp/credits although issued here', async () => {
    const world = new SaleWorld();
    const challenge = expectFresh402(answer(await world.decide({ [HEADERS.purchase]: 'pack' })), PAYMENT_PROBLEMS.paymentRequired);
    expect(opaqueOf(challenge).kind).toBe(PURCHASE_KINDS.pack);
    expect(world.store.challenge(challenge.id)).toMatchObject({ kind: PURCHASE_KINDS.pack, origin: RESOURCE });
    expectGranted(await world.atCredits(paid(challenge)), PACK_NANO, 'pi_1');
    // The call itself is still unpaid until presented again: the pack is on the balance now, which pays it.
    const call = expectCall(await world.decide(), 200, null);
    expect(bodyJson(call)).toEqual({ served: 1 });
    expect(world.available()).toBe(String(BigInt(PACK_NANO) - BigInt(CALL_NANO)));
  });

  it('Service-Purchase not among the covered components counts as absent: the default kind', async () => {
    const world = new SaleWorld({ sale: { defaultKind: PURCHASE_KINDS.exact } });
    const challenge = expectFresh402(answer(await world.decide({ [HEADERS.purchase]: 'pack' }, { coveredHeaders: [] })), PAYMENT_PROBLEMS.paymentRequired);
    expect(opaqueOf(challenge).kind).toBe(PURCHASE_KINDS.exact);
  });

  it('an agent whose balance covers the call is served from it: no purchase, terms headers, no receipt', async () => {
    const world = new SaleWorld();
    await world.atCredits(paid(expectFresh402(answer(await world.decide({ [HEADERS.purchase]: 'pack' })), PAYMENT_PROBLEMS.paymentRequired)));
    expectCall(await world.decide(), 200, null);
    expectCall(await world.decide(), 200, null);
    expect(world.server.ran.map((c) => c.challengeId)).toEqual([null, null]);
    expect(world.available()).toBe(String(BigInt(PACK_NANO) - 2n * BigInt(CALL_NANO)));
    expect(world.processor.chargeCalls()).toBe(1);
  });

  it('a call the resource fails or does not start, paid from the balance, spends nothing', async () => {
    const world = new SaleWorld({ serves: ['failed', 'not-started'] });
    await world.atCredits(paid(expectFresh402(answer(await world.decide({ [HEADERS.purchase]: 'pack' })), PAYMENT_PROBLEMS.paymentRequired)));
    expectCall(await world.decide(), 502, null);
    const notStarted = answer(await world.decide());
    expectCode(notStarted, PURCHASE_ERRORS.funding_unavailable);
    expect(world.available()).toBe(PACK_NANO);
  });

  it('503 funding_unavailable (Retry-After, do not buy) when in-flight calls hold the balance, or the funding step fails', async () => {
    const world = new SaleWorld();
    world.config = { ...world.config, pack: { ...world.config.pack, creditNano: CALL_NANO } };
    await world.atCredits(paid(expectFresh402(answer(await world.decide({ [HEADERS.purchase]: 'pack' })), PAYMENT_PROBLEMS.paymentRequired)));
    let inner: unknown;
    world.server.during = async () => {
      world.server.during = undefined;
      inner = await world.decide();
    };
    expectCall(await world.decide(), 200, null);
    const held = answer(inner as Awaited<ReturnType<SaleWorld['decide']>>);
    expectCode(held, PURCHASE_ERRORS.funding_unavailable);
    expect(held.headers[HEADERS.retryAfter]).toBe(String(FUNDING_RETRY_AFTER));
    expect(world.processor.chargeCalls()).toBe(1);

    const failing = new SaleWorld();
    await failing.atCredits(paid(expectFresh402(answer(await failing.decide({ [HEADERS.purchase]: 'pack' })), PAYMENT_PROBLEMS.paymentRequired)));
    failing.funding.failHold = true;
    expectCode(answer(await failing.decide()), PURCHASE_ERRORS.funding_unavailable);
    expect(failing.server.ran).toEqual([]);
  });

  it('switches close buying but not calls paid from the balance: 403 mpp_disabled, purchases_disabled', async () => {
    const world = new SaleWorld();
    world.config = { ...world.config, mppEnabled: false };
    expectCode(answer(await world.decide()), PURCHASE_ERRORS.mpp_disabled);
    expectCode(answer(await world.anonymous()), PURCHASE_ERRORS.mpp_disabled);
    world.config = { ...world.config, mppEnabled: true, purchasesOpen: false };
    expectCode(answer(await world.decide()), PURCHASE_ERRORS.purchases_disabled);
  });

  it('503 mpp_not_configured when a covered Service-Payment-Methods names no method single calls are sold by', async () => {
    const world = new SaleWorld();
    expectCode(answer(await world.decide({ [HEADERS.paymentMethods]: 'tempo' })), PURCHASE_ERRORS.mpp_not_configured);
    expectCode(answer(await world.decide({ [HEADERS.paymentMethods]: 'tempo', [HEADERS.purchase]: 'pack' })), PURCHASE_ERRORS.mpp_not_configured);
    expectFresh402(answer(await world.decide({ [HEADERS.paymentMethods]: 'tempo, stripe' })), PAYMENT_PROBLEMS.paymentRequired);
    const closed = new SaleWorld({ sale: { methods: [] } });
    expectCode(answer(await closed.anonymous()), PURCHASE_ERRORS.mpp_not_configured);
  });

  it('the 402 names the account in opaque as base64url JCS', async () => {
    const world = new SaleWorld();
    const challenge = expectFresh402(answer(await world.decide()), PAYMENT_PROBLEMS.paymentRequired);
    const echo = world.store.challenge(challenge.id)!.echo;
    expect(decodeBase64urlJson(echo.opaque!)).toMatchObject({ ok: true, value: { userId: BUYER, kind: PURCHASE_KINDS.exact } });
  });
});
