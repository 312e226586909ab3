import { describe, expect, it } from 'vitest';
import { credentialFor, serializeCredential, settleReported, type PaymentChallenge } from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES, problemTypeUrl } from '../../../src/spec/problem-types.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import { BUYER, NEXT_VERSION, OTHER_BUYER, TERMS_URL, VERSION, expectCode, expectFresh402, oneChallenge, paid } from '../machine/helpers.js';
import { ADDRESS, CALL_NANO, OTHER_RESOURCE, RESOURCE, SaleWorld, answer, bodyJson, expectCall } from './helpers.js';

/** A fresh single-call challenge for the signed agent (or an unidentified caller). */
async function callChallenge(world: SaleWorld, unidentified = false): Promise<PaymentChallenge> {
  return oneChallenge(answer(unidentified ? await world.anonymous() : await world.decide()));
}

/** 12:00 UTC: the caps' day starts again in 12 hours. */
const TO_NEXT_DAY = '43200';

describe('a single call bought with a card credential', () => {
  it('a signed agent: charged, credited, funded and served once; 200 with the call body, receipt, terms headers', async () => {
    const world = new SaleWorld();
    const call = expectCall(await world.decide(paid(await callChallenge(world))), 200, { chargeId: 'pi_1' });
    expect(bodyJson(call)).toEqual({ served: 1 });
    expect(world.server.ran).toHaveLength(1);
    expect(world.server.ran[0]).toMatchObject({ resource: RESOURCE, account: BUYER });
    expect(world.store.balance(BUYER)).toBe(CALL_NANO);
    expect(world.available()).toBe('0');
  });

  it('an unidentified caller: assent as sent, served once; the sale is its own payer', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world, true);
    expectCall(await world.anonymous(paid(challenge)), 200, { chargeId: 'pi_1' });
    expect(world.server.ran[0]).toMatchObject({ account: null, challengeId: challenge.id });
    expectCode(answer(await world.anonymous(paid(challenge))), PURCHASE_ERRORS.call_already_served);
  });

  it('403 challenge_kind_mismatch for a pack challenge presented for a call, and for a call challenge at /api/mpp/credits', async () => {
    const world = new SaleWorld();
    const pack = oneChallenge(answer(await world.decide({ [HEADERS.purchase]: 'pack' })));
    expectCode(answer(await world.decide(paid(pack))), PURCHASE_ERRORS.challenge_kind_mismatch);
    const call = await callChallenge(world);
    expectCode(await world.atCredits(paid(call, 'spt_2')), PURCHASE_ERRORS.challenge_kind_mismatch);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('a call challenge whose charge was sent here is not resumed at /api/mpp/credits', async () => {
    const world = new SaleWorld({ charges: ['processing'] });
    const call = await callChallenge(world);
    expectCode(answer(await world.decide(paid(call))), PURCHASE_ERRORS.charge_processing);
    expectCode(await world.atCredits(paid(call)), PURCHASE_ERRORS.challenge_kind_mismatch);
    expect(world.store.allGrants()).toEqual([]);
  });

  it('403 challenge_origin_mismatch for a call challenge issued by another resource', async () => {
    const other = new SaleWorld({ sale: { resource: OTHER_RESOURCE } });
    const elsewhere = oneChallenge(answer(await other.decide({}, { resource: OTHER_RESOURCE })));
    const world = new SaleWorld();
    world.store.issue(other.store.challenge(elsewhere.id)!);
    expectCode(answer(await world.decide(paid(elsewhere))), PURCHASE_ERRORS.challenge_origin_mismatch);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('401 terms_acceptance_unauthenticated when the challenge names an agent and another (or nobody) presents it', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world);
    expectCode(answer(await world.decide(paid(challenge), { buyer: { agentUrl: OTHER_BUYER } })), PURCHASE_ERRORS.terms_acceptance_unauthenticated);
    expectCode(answer(await world.anonymous(paid(challenge))), PURCHASE_ERRORS.terms_acceptance_unauthenticated);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('403 buyer_inactive when the account the challenge names is no longer an active agent', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world);
    world.accounts.inactive.add(BUYER);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.buyer_inactive);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('503 metered_not_ready for an unidentified challenge once such calls stop being sold', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world, true);
    world.config = { ...world.config, sale: { ...world.config.sale, anonymous: false } };
    expectCode(answer(await world.anonymous(paid(challenge))), PURCHASE_ERRORS.metered_not_ready);
  });

  it('terms as on the pack side: 402 terms-acceptance-required and terms-version-stale, each with a fresh call challenge', async () => {
    const world = new SaleWorld();
    const first = await callChallenge(world);
    const fresh = expectFresh402(answer(await world.decide(paid(first, 'spt_1', null))), PURCHASE_ERRORS['terms-acceptance-required']);
    expect(fresh.opaque?.kind).toBe(PURCHASE_KINDS.exact);
    expectFresh402(
      answer(await world.decide(paid(fresh, 'spt_1'), { coveredHeaders: [HEADERS.paymentAuthorization] })),
      PURCHASE_ERRORS['terms-acceptance-required'],
    );
    expectFresh402(answer(await world.decide(paid(fresh, 'spt_1', '2025-01-01'))), PURCHASE_ERRORS['terms-version-stale']);
    world.config = { ...world.config, terms: { url: TERMS_URL, version: NEXT_VERSION } };
    expectFresh402(answer(await world.decide(paid(fresh, 'spt_1', NEXT_VERSION))), PURCHASE_ERRORS['terms-version-stale'], NEXT_VERSION);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('402 payment-expired after 300 s, 402 invalid-payload without a token, 400 method-unsupported for a method not sold', async () => {
    const world = new SaleWorld();
    const challenge = await callChallenge(world);
    const noToken = { [HEADERS.paymentAuthorization]: serializeCredential(credentialFor(challenge, {})), [HEADERS.termsAccepted]: VERSION };
    expectFresh402(answer(await world.decide(noToken)), PURCHASE_ERRORS['invalid-payload']);
    const tempo = { ...credentialFor(challenge, { spt: 'spt_1' }), challenge: { ...credentialFor(challenge, {}).challenge, method: 'tempo' } };
    const unsupported = answer(await world.decide({ [HEADERS.paymentAuthorization]: serializeCredential(tempo), [HEADERS.termsAccepted]: VERSION }));
    const row = PURCHASE_ERRORS['method-unsupported'];
    expect(unsupported.status).toBe(row.status);
    expect(unsupported.body.type).toBe(problemTypeUrl(DEFAULT_PROBLEM_BASES, row.problemBase!, row.code));
    expect(unsupported.headers[HEADERS.wwwAuthenticate]).toBeUndefined();
    world.clock.advance(301);
    expectFresh402(answer(await world.decide(paid(challenge))), PAYMENT_PROBLEMS.paymentExpired);
    expect(world.processor.chargeCalls()).toBe(0);
  });

  it('403 metered_unavailable_for_card when per-call card sales close, the call is re-priced, or the card is from elsewhere; nothing charged', async () => {
    const closed = new SaleWorld();
    const a = await callChallenge(closed);
    closed.config = { ...closed.config, sale: { ...closed.config.sale, cardOpen: false } };
    expectCode(answer(await closed.decide(paid(a))), PURCHASE_ERRORS.metered_unavailable_for_card);

    const repriced = new SaleWorld();
    const b = await callChallenge(repriced);
    repriced.config = { ...repriced.config, sale: { ...repriced.config.sale, price: { amount: '30', currency: 'usd' }, priceNano: '300000000' } };
    expectCode(answer(await repriced.decide(paid(b))), PURCHASE_ERRORS.metered_unavailable_for_card);

    const foreign = new SaleWorld({ sale: { cardCountries: ['US'] } });
    foreign.processor.countries.set('spt_de', 'DE');
    expectCode(answer(await foreign.decide(paid(await callChallenge(foreign), 'spt_de'))), PURCHASE_ERRORS.metered_unavailable_for_card);
    // A card whose country cannot be established is closed for purchases altogether (7.4 purchases_unavailable_region names it).
    foreign.processor.defaultCountry = undefined;
    expectCode(answer(await foreign.decide(paid(await callChallenge(foreign), 'spt_x'))), PURCHASE_ERRORS.purchases_unavailable_region);

    for (const world of [closed, repriced, foreign]) expect(world.processor.chargeCalls()).toBe(0);
  });

  it('403 purchases_unavailable_region and 403 foreign_token as on the pack side', async () => {
    const world = new SaleWorld();
    world.config = { ...world.config, closedMarkets: ['FR'] };
    world.processor.countries.set('spt_fr', 'FR');
    expectCode(answer(await world.decide(paid(await callChallenge(world), 'spt_fr'))), PURCHASE_ERRORS.purchases_unavailable_region);
    expectCall(await world.decide(paid(await callChallenge(world), 'spt_1')), 200, { chargeId: 'pi_1' });
    expectCode(answer(await world.decide(paid(await callChallenge(world), 'spt_1'))), PURCHASE_ERRORS.foreign_token);
    expect(world.processor.chargeCalls()).toBe(1);
  });
});

describe('daily caps (429): nothing charged', () => {
  it('metered_principal_cap: the agent reached its exact purchases, counted on its account and its signing identity', async () => {
    const world = new SaleWorld({ sale: { caps: { principalPerDay: 1, ipPerDay: 9, instrumentPerDay: 9, platformPerDay: 9 } } });
    expectCall(await world.decide(paid(await callChallenge(world), 'spt_1')), 200, { chargeId: 'pi_1' });
    const over = answer(await world.decide(paid(await callChallenge(world), 'spt_2')));
    expectCode(over, PURCHASE_ERRORS.metered_principal_cap);
    // The same signing identity buying for another account is counted too.
    const other = oneChallenge(answer(await world.decide({}, { buyer: { agentUrl: OTHER_BUYER } })));
    expectCode(answer(await world.decide(paid(other, 'spt_3'), { buyer: { agentUrl: OTHER_BUYER } })), PURCHASE_ERRORS.metered_principal_cap);
    expect(world.processor.chargeCalls()).toBe(1);
    // Next day the counters start again.
    world.clock.advance(Number(TO_NEXT_DAY));
    expectCall(await world.decide(paid(await callChallenge(world), 'spt_4')), 200, { chargeId: 'pi_2' });
  });

  it('metered_ip_cap: unidentified purchases per network address; another address is not counted', async () => {
    const world = new SaleWorld({ sale: { caps: { principalPerDay: 9, ipPerDay: 1, instrumentPerDay: 9, platformPerDay: 9 } } });
    expectCall(await world.anonymous(paid(await callChallenge(world, true), 'spt_1')), 200, { chargeId: 'pi_1' });
    expectCode(answer(await world.anonymous(paid(await callChallenge(world, true), 'spt_2'))), PURCHASE_ERRORS.metered_ip_cap);
    expectCall(await world.anonymous(paid(await callChallenge(world, true), 'spt_3'), { clientAddress: '198.51.100.9' }), 200, { chargeId: 'pi_2' });
    expect(ADDRESS).not.toBe('198.51.100.9');
  });

  it('metered_instrument_cap (per card) and metered_platform_ceiling carry Retry-After until the day ends', async () => {
    const world = new SaleWorld({ sale: { caps: { principalPerDay: 9, ipPerDay: 9, instrumentPerDay: 1, platformPerDay: 2 } } });
    world.cards.cards.set('spt_1', 'card_A');
    world.cards.cards.set('spt_2', 'card_A');
    expectCall(await world.decide(paid(await callChallenge(world), 'spt_1')), 200, { chargeId: 'pi_1' });
    const card = answer(await world.decide(paid(await callChallenge(world), 'spt_2')));
    expectCode(card, PURCHASE_ERRORS.metered_instrument_cap);
    expect(card.headers[HEADERS.retryAfter]).toBe(TO_NEXT_DAY);
    expectCall(await world.decide(paid(await callChallenge(world), 'spt_3')), 200, { chargeId: 'pi_2' });
    const platform = answer(await world.decide(paid(await callChallenge(world), 'spt_4')));
    expectCode(platform, PURCHASE_ERRORS.metered_platform_ceiling);
    expect(platform.headers[HEADERS.retryAfter]).toBe(TO_NEXT_DAY);
  });

  it('a card the processor cannot identify is not sold a single call (403 metered_unavailable_for_card)', async () => {
    const world = new SaleWorld();
    world.cards.unknownByDefault = true;
    expectCode(answer(await world.decide(paid(await callChallenge(world)))), PURCHASE_ERRORS.metered_unavailable_for_card);
  });

  it('a declined charge gives its caps back and answers 402 verification-failed with a fresh call challenge', async () => {
    const world = new SaleWorld({ charges: ['declined'], sale: { caps: { principalPerDay: 1, ipPerDay: 9, instrumentPerDay: 9, platformPerDay: 9 } } });
    const challenge = await callChallenge(world);
    const fresh = expectFresh402(answer(await world.decide(paid(challenge, 'spt_1'))), PAYMENT_PROBLEMS.verificationFailed);
    expect(fresh.opaque?.kind).toBe(PURCHASE_KINDS.exact);
    // Presented again: the charge captured nothing, a fresh challenge again, and the caps are not given back twice.
    expectFresh402(answer(await world.decide(paid(challenge, 'spt_1'))), PAYMENT_PROBLEMS.verificationFailed);
    expectCall(await world.decide(paid(fresh, 'spt_2')), 200, { chargeId: 'pi_2' });
    expectCode(answer(await world.decide(paid(await callChallenge(world), 'spt_3'))), PURCHASE_ERRORS.metered_principal_cap);
    expect(world.server.ran).toHaveLength(1);
  });
});

describe('settlement reported for a call credential never presented again', () => {
  it('credits the agent once; presented later, the credential serves its own call once from that credit, then 409 call_already_served', async () => {
    const world = new SaleWorld({ charges: ['processing'] });
    const challenge = await callChallenge(world);
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', 'settled');
    expect(await settleReported({ chargeId: 'pi_1' }, world.ports)).toMatchObject({ credited: true });
    expect(world.store.balance(BUYER)).toBe(CALL_NANO);
    expectCall(await world.decide(paid(challenge)), 200, { chargeId: 'pi_1' });
    expect(world.store.balance(BUYER)).toBe(CALL_NANO);
    expect(world.available()).toBe('0');
    expectCode(answer(await world.decide(paid(challenge))), PURCHASE_ERRORS.call_already_served);
  });
});
