import { describe, expect, it } from 'vitest';
import { settleReported } from '../../../src/purchase/index.js';
import { MESSAGES } from '../../../src/purchase/machine/messages.js';
import { HEADERS } from '../../../src/spec/headers.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_PROBLEMS } from '../../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../../src/spec/purchase-errors.js';
import {
  BUYER,
  NEXT_VERSION,
  OTHER_BUYER,
  PACK_NANO,
  T0,
  TERMS_URL,
  VERSION,
  World,
  expectCode,
  expectFresh402,
  expectGranted,
  paid,
  twice,
} from './helpers.js';

describe('move 1: no credential', () => {
  it('answers 402 payment-required with one fresh stripe challenge expiring after 300 s, the terms headers and nothing charged', async () => {
    const world = new World();
    const answer = await world.decide();
    const challenge = expectFresh402(answer, PAYMENT_PROBLEMS.paymentRequired);
    expect(challenge.expires).toBe(new Date((T0 + 300) * 1000).toISOString());
    expect(challenge.request).toMatchObject({ amount: '500', currency: 'usd' });
    expect(challenge.header).toBe(PAYMENT_CREDENTIAL_HEADER);
    expect(answer.body.terms).toEqual({ url: TERMS_URL, version: VERSION, header: 'Service-Terms-Accepted' });
    expect(world.store.challenge(challenge.id)).toBeDefined();
    expect(world.processor.calls).toEqual([]);
  });

  it('issues a different challenge on every 402, even within the same second', async () => {
    const world = new World();
    const a = await world.challenge();
    const b = await world.challenge();
    expect(a.id).not.toBe(b.id);
  });

  it('answers 503 mpp_not_configured when a covered Service-Payment-Methods names no stripe; an uncovered one is ignored', async () => {
    const world = new World();
    expectCode(await world.decide({ [HEADERS.paymentMethods]: 'tempo' }), PURCHASE_ERRORS.mpp_not_configured);
    const uncovered = await world.decide({ [HEADERS.paymentMethods]: 'tempo' }, { coveredHeaders: [] });
    expectFresh402(uncovered, PAYMENT_PROBLEMS.paymentRequired);
    expectFresh402(await world.decide({ [HEADERS.paymentMethods]: 'tempo, stripe' }), PAYMENT_PROBLEMS.paymentRequired);
  });
});

describe('move 2: terms acceptance', () => {
  it('a credential without Service-Terms-Accepted: 402 terms-acceptance-required with a fresh challenge, nothing charged', async () => {
    const world = new World();
    const first = await world.challenge();
    const fresh = expectFresh402(await world.decide(paid(first, 'spt_1', null)), PURCHASE_ERRORS['terms-acceptance-required']);
    expect(fresh.id).not.toBe(first.id);
    expect(world.processor.calls).toEqual([]);
  });

  it('assent not among the covered components of a signed request counts as none', async () => {
    const world = new World();
    const first = await world.challenge();
    const answer = await world.decide(paid(first), { coveredHeaders: [HEADERS.paymentAuthorization] });
    expectFresh402(answer, PURCHASE_ERRORS['terms-acceptance-required']);
    expect(world.processor.calls).toEqual([]);
  });

  it('on a request authenticated with the platform token (unsigned) the assent counts as sent', async () => {
    const world = new World();
    const first = await world.challenge();
    expectGranted(await world.decide(paid(first), { signed: false, coveredHeaders: [] }), PACK_NANO, 'pi_1');
  });

  it('a stale version sent: 402 terms-version-stale with a fresh challenge naming the current version', async () => {
    const world = new World();
    const first = await world.challenge();
    expectFresh402(await world.decide(paid(first, 'spt_1', '2025-01-01')), PURCHASE_ERRORS['terms-version-stale']);
    expect(world.processor.calls).toEqual([]);
  });

  it('a challenge issued under a version no longer current: terms-version-stale even with the current version sent', async () => {
    const world = new World();
    const first = await world.challenge();
    world.config = { ...world.config, terms: { url: TERMS_URL, version: NEXT_VERSION } };
    const fresh = expectFresh402(await world.decide(paid(first, 'spt_1', NEXT_VERSION)), PURCHASE_ERRORS['terms-version-stale'], NEXT_VERSION);
    expect(fresh.opaque?.terms).toBe(NEXT_VERSION);
    expect(world.processor.calls).toEqual([]);
    expectGranted(await world.decide(paid(fresh, 'spt_2', NEXT_VERSION)), PACK_NANO, 'pi_1');
  });
});

describe('move 3: acceptance from an unauthenticated request', () => {
  it('answers 401 terms_acceptance_unauthenticated with no Payment challenge, nothing charged', async () => {
    const world = new World();
    const first = await world.challenge();
    const answer = await world.decide(paid(first), { buyer: null, signed: false, coveredHeaders: [] });
    expectCode(answer, PURCHASE_ERRORS.terms_acceptance_unauthenticated);
    expect(answer.headers[HEADERS.wwwAuthenticate]).toMatch(/^Bearer /);
    expect(world.processor.calls).toEqual([]);
    expect(world.balance()).toBe('0');
    // The same credential on an authenticated request then goes through: nothing was claimed.
    expectGranted(await world.decide(paid(first)), PACK_NANO, 'pi_1');
  });
});

describe('move 4: deployment switches', () => {
  it('mpp disabled: 403 mpp_disabled, with or without a credential, no challenge, nothing charged', async () => {
    const world = new World();
    const first = await world.challenge();
    world.config = { ...world.config, mppEnabled: false };
    expectCode(await world.decide(), PURCHASE_ERRORS.mpp_disabled);
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.mpp_disabled);
    expect(world.processor.calls).toEqual([]);
  });

  it('purchases closed: 403 purchases_disabled, no challenge, nothing charged', async () => {
    const world = new World();
    const first = await world.challenge();
    world.config = { ...world.config, purchasesOpen: false };
    expectCode(await world.decide(), PURCHASE_ERRORS.purchases_disabled);
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.purchases_disabled);
    expect(world.processor.calls).toEqual([]);
  });
});

describe('move 5: a credential for an expired challenge', () => {
  it('older than 300 s with no charge record: 402 payment-expired with a fresh challenge, nothing charged', async () => {
    const world = new World();
    const first = await world.challenge();
    world.clock.advance(301);
    const fresh = expectFresh402(await world.decide(paid(first)), PAYMENT_PROBLEMS.paymentExpired);
    expect(fresh.expires).toBe(new Date((T0 + 301 + 300) * 1000).toISOString());
    expect(world.processor.calls).toEqual([]);
    expect(world.balance()).toBe('0');
  });

  it('exactly 300 s old is still within its lifetime', async () => {
    const world = new World();
    const first = await world.challenge();
    world.clock.advance(300);
    expectGranted(await world.decide(paid(first)), PACK_NANO, 'pi_1');
  });

  it('a settled payment behind an expired challenge is still credited, once', async () => {
    const world = new World(['processing']);
    const first = await world.challenge();
    world.clock.advance(10);
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', 'settled');
    world.clock.advance(400);
    expectGranted(await world.decide(paid(first)), PACK_NANO, 'pi_1');
    expect(world.processor.charges.size).toBe(1);
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.purchase_already_granted);
    expect(world.balance()).toBe(PACK_NANO);
  });
});

describe('move 6: a fresh valid credential is charged', () => {
  it('settled: 200 with the purchase block and a Payment-Receipt, credited once', async () => {
    const world = new World(['settled']);
    const first = await world.challenge();
    const answer = await world.decide(paid(first));
    expectGranted(answer, PACK_NANO, 'pi_1');
    expect(world.processor.calls).toEqual([{ kind: 'charge', arg: `mpp_${first.id}`, token: 'spt_1' }]);
    expect(world.store.allGrants()).toHaveLength(1);
    expect(world.balance()).toBe(PACK_NANO);
  });

  it.each(['declined', 'cancelled-unsettled'] as const)('%s: 402 verification-failed with a fresh challenge, nothing credited', async (outcome) => {
    const world = new World([outcome]);
    const first = await world.challenge();
    const fresh = expectFresh402(await world.decide(paid(first)), PAYMENT_PROBLEMS.verificationFailed);
    expect(fresh.id).not.toBe(first.id);
    expect(world.processor.chargeCalls()).toBe(1);
    expect(world.balance()).toBe('0');
    // A new token on the fresh challenge buys the pack.
    expectGranted(await world.decide(paid(fresh, 'spt_2')), PACK_NANO, 'pi_2');
  });

  it('settled but not credited: 503 grant_failed, the charge kept settled; the same credential is credited once, not charged again', async () => {
    const world = new World(['settled']);
    world.store.failGrants = 2;
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.grant_failed);
    expect(world.store.allCharges().map((c) => [c.state, c.chargeId])).toEqual([['settled', 'pi_1']]);
    // Resumed from the settled record: the grant alone is asked again.
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.grant_failed);
    expect(world.balance()).toBe('0');
    expectGranted(await world.decide(paid(first)), PACK_NANO, 'pi_1');
    expect(world.processor.chargeCalls()).toBe(1);
    expect(world.store.allGrants()).toHaveLength(1);
  });

  it('processing: 503 charge_processing with retry.sameCredential and no Retry-After', async () => {
    const world = new World(['processing']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    expect(world.processor.chargeCalls()).toBe(1);
    expect(world.balance()).toBe('0');
  });

  it('unknown: 503 charge_outcome_unknown', async () => {
    const world = new World(['unknown']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_outcome_unknown);
    expect(world.balance()).toBe('0');
  });

  it('the processor throws: 503 charge_outcome_unknown', async () => {
    const world = new World(['throw']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_outcome_unknown);
    expect(world.processor.chargeCalls()).toBe(1);
    expect(world.balance()).toBe('0');
  });

  it('a challenge this deployment never issued: 402 invalid-challenge, nothing charged', async () => {
    const world = new World();
    const foreign = await new World([], { realm: 'elsewhere.example' }).challenge();
    expectFresh402(await world.decide(paid(foreign)), PAYMENT_PROBLEMS.invalidChallenge);
    expect(world.processor.calls).toEqual([]);
  });
});

describe('move 7: the same credential presented again', () => {
  it('resumes the original charge without asking the earlier checks again (switches, terms, expiry, assent)', async () => {
    const world = new World(['processing']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', 'settled');
    world.config = { ...world.config, mppEnabled: false, purchasesOpen: false, terms: { url: TERMS_URL, version: NEXT_VERSION } };
    world.clock.advance(600);
    const answer = await world.decide(paid(first, 'spt_1', null));
    expectGranted(answer, PACK_NANO, 'pi_1');
    expect(world.processor.calls.map((c) => c.kind)).toEqual(['charge', 'status']);
    // The resumed card charge keeps the terms version of its own challenge.
    expect(world.store.grantOf(first.id)?.termsVersion).toBe(VERSION);
  });

  it('settled and granted: 409 purchase_already_granted, nothing charged, balance credited once', async () => {
    const world = new World(['settled']);
    const first = await world.challenge();
    expectGranted(await world.decide(paid(first)), PACK_NANO, 'pi_1');
    const again = await world.decide(paid(first));
    expectCode(again, PURCHASE_ERRORS.purchase_already_granted);
    expect(again.body.receipt).toMatchObject({ reference: 'pi_1', status: 'success' });
    expect(world.processor.calls).toHaveLength(1);
    expect(world.balance()).toBe(PACK_NANO);
  });

  it.each(['declined', 'cancelled-unsettled'] as const)('a resumed charge that reports nothing captured (%s) ends in a fresh challenge', async (state) => {
    const world = new World(['processing']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', state);
    expectFresh402(await world.decide(paid(first)), PAYMENT_PROBLEMS.verificationFailed);
    // Asked once more: still a fresh challenge, and the processor is not asked again.
    const calls = world.processor.calls.length;
    expectFresh402(await world.decide(paid(first)), PAYMENT_PROBLEMS.verificationFailed);
    expect(world.processor.calls).toHaveLength(calls);
    expect(world.balance()).toBe('0');
  });

  it('after a fault the charge is resumed by its idempotency key: no second charge is created', async () => {
    const world = new World([{ reply: 'throw', actual: 'settled' }]);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_outcome_unknown);
    expectGranted(await world.decide(paid(first)), PACK_NANO, 'pi_1');
    expect(world.processor.calls.map((c) => c.arg)).toEqual([`mpp_${first.id}`, `mpp_${first.id}`]);
    expect(world.processor.charges.size).toBe(1);
  });

  it('a resumed charge still unknown or processing answers 503 again', async () => {
    const world = new World(['unknown']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_outcome_unknown);
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    world.processor.statusScript.push('throw');
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_outcome_unknown);
    expect(world.processor.charges.size).toBe(1);
  });

  it('only the buying agent resumes: another agent or an unauthenticated caller gets 401, nothing asked', async () => {
    const world = new World(['processing']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    expectCode(await world.decide(paid(first), { buyer: { agentUrl: OTHER_BUYER } }), PURCHASE_ERRORS.terms_acceptance_unauthenticated);
    expectCode(await world.decide(paid(first), { buyer: null, signed: false }), PURCHASE_ERRORS.terms_acceptance_unauthenticated);
    expect(world.processor.calls).toHaveLength(1);
  });

  it('the same challenge with another token is not the same credential: 402 invalid-challenge', async () => {
    const world = new World(['declined']);
    const first = await world.challenge();
    expectFresh402(await world.decide(paid(first, 'spt_1')), PAYMENT_PROBLEMS.verificationFailed);
    expectFresh402(await world.decide(paid(first, 'spt_2')), PAYMENT_PROBLEMS.invalidChallenge);
    expect(world.processor.chargeCalls()).toBe(1);
  });

  it('a challenge another payment redeemed says so in the detail of its 402 invalid-challenge', async () => {
    const world = new World(['declined']);
    const first = await world.challenge();
    await world.decide(paid(first, 'spt_1'));
    const refused = await world.decide(paid(first, 'spt_2'));
    expectFresh402(refused, PAYMENT_PROBLEMS.invalidChallenge);
    expect(refused.body.detail).toBe(MESSAGES.redeemedByPayment);
  });

  it('a credential that does not parse: 402 malformed-credential whose detail names what the parse found', async () => {
    const world = new World();
    const refused = await world.decide({ [HEADERS.paymentAuthorization]: 'Payment not-base64url!', [HEADERS.termsAccepted]: VERSION });
    expectFresh402(refused, PAYMENT_PROBLEMS.malformedCredential);
    // The row's condition, then in brackets what the parse found (messages.ts).
    expect(String(refused.body.detail)).toMatch(/ \(.+\)$/);
    expect(String(refused.body.detail).startsWith(`${PAYMENT_PROBLEMS.malformedCredential.condition} (`)).toBe(true);
    expect(world.processor.chargeCalls()).toBe(0);
  });
});

describe('move 8: a settlement reported by the processor', () => {
  it('credits a credential never presented again exactly once; a later presentation gets 409', async () => {
    const world = new World(['processing']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', 'settled');
    world.clock.advance(3600);
    const reported = await settleReported({ chargeId: 'pi_1' }, world.ports);
    expect(reported).toMatchObject({ credited: true, balanceNano: PACK_NANO, grant: { buyer: BUYER, grantedAt: T0 + 3600 } });
    expect(await settleReported({ chargeId: 'pi_1' }, world.ports)).toMatchObject({ credited: false, reason: 'already-credited' });
    expect(world.balance()).toBe(PACK_NANO);
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.purchase_already_granted);
    expect(world.balance()).toBe(PACK_NANO);
  });

  it('finds a charge whose id was never learned by its idempotency key', async () => {
    const world = new World([{ reply: 'throw', actual: 'settled' }]);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_outcome_unknown);
    const charge = world.processor.chargeFor(`mpp_${first.id}`)!;
    expect(await settleReported({ chargeId: charge.chargeId, idempotencyKey: charge.idempotencyKey }, world.ports)).toMatchObject({ credited: true });
    expect(world.balance()).toBe(PACK_NANO);
  });

  it('a settlement the store cannot credit: grant-failed, the charge settled and nothing credited; the next report credits once', async () => {
    const world = new World(['processing']);
    const first = await world.challenge();
    expectCode(await world.decide(paid(first)), PURCHASE_ERRORS.charge_processing);
    world.processor.resolve('pi_1', 'settled');
    world.store.failGrants = 1;
    expect(await settleReported({ chargeId: 'pi_1' }, world.ports)).toEqual({ credited: false, reason: 'grant-failed' });
    expect(world.store.allCharges().map((c) => [c.state, c.chargeId])).toEqual([['settled', 'pi_1']]);
    expect(world.store.allGrants()).toEqual([]);
    expect(world.balance()).toBe('0');
    expect(await settleReported({ chargeId: 'pi_1' }, world.ports)).toMatchObject({ credited: true, balanceNano: PACK_NANO });
    expect(world.store.allGrants()).toHaveLength(1);
  });

  it('a settlement matching no record is left unmatched, nothing credited', async () => {
    const world = new World();
    expect(await settleReported({ chargeId: 'pi_404' }, world.ports)).toEqual({ credited: false, reason: 'unmatched' });
    expect(world.store.allGrants()).toEqual([]);
  });
});

describe('move 9: foreign_token', () => {
  it('a shared payment token that already paid another purchase: 403 foreign_token, not charged again', async () => {
    const world = new World(['settled', 'settled']);
    const first = await world.challenge();
    expectGranted(await world.decide(paid(first, 'spt_1')), PACK_NANO, 'pi_1');
    const second = await world.challenge();
    expectCode(await world.decide(paid(second, 'spt_1')), PURCHASE_ERRORS.foreign_token);
    expect(world.processor.chargeCalls()).toBe(1);
    expect(world.balance()).toBe(PACK_NANO);
    // The second challenge is still good for a new token.
    expectGranted(await world.decide(paid(second, 'spt_2')), twice(PACK_NANO), 'pi_2');
  });
});
