import fc from 'fast-check';
import { Challenge } from 'mppx';
import { describe, expect, it } from 'vitest';
import { isGranted, jcsBase64url, type PaymentChallenge, type PurchaseOutcome } from '../../src/purchase/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_KINDS } from '../../src/spec/payments.js';
import { NEXT_VERSION, World, oneChallenge, paid } from '../purchase/machine/helpers.js';
import { SaleWorld, answer } from '../purchase/sale/helpers.js';
import { TempoWorld } from '../purchase/tempo/helpers.js';

const codeOf = (outcome: PurchaseOutcome): string => (isGranted(outcome) ? '' : outcome.code);

/** Our `request="…"` auth-param value, exactly as it went out. */
function requestParam(header: string): string {
  const match = /(?:^|[\s,])request="([^"]*)"/.exec(header);
  if (!match) throw new Error(`no request param in ${header}`);
  return match[1]!;
}

/**
 * mppx 0.11 reads the challenge: Challenge.deserialize gives back every member we sent (request decoded to the
 * same object, opaque as our base64url string, header Payment-Authorization so its client answers in that
 * header), and Challenge.serialize of what it read writes our exact `request="…"` bytes (the request is JCS).
 */
function expectMppxReads(outcome: PurchaseOutcome, method: string): PaymentChallenge {
  expect(outcome.status).toBe(402);
  const header = outcome.headers[HEADERS.wwwAuthenticate]!;
  const ours = oneChallenge(outcome);
  const parsed = Challenge.deserialize(header);
  expect(parsed).toMatchObject({ id: ours.id, realm: ours.realm, method, intent: ours.intent, expires: ours.expires, header: PAYMENT_CREDENTIAL_HEADER });
  expect(parsed.request).toEqual(ours.request);
  expect(parsed.opaque).toBe(ours.opaque === undefined ? undefined : jcsBase64url(ours.opaque));
  expect(Challenge.credentialHeader(parsed)).toBe(PAYMENT_CREDENTIAL_HEADER);
  const again = Challenge.serialize(parsed);
  expect(requestParam(again)).toBe(requestParam(header));
  expect(requestParam(header)).toBe(jcsBase64url(ours.request));
  // The list reader and a Response reader agree with the single reader.
  expect(Challenge.deserializeList(header).map((c) => c.id)).toEqual([ours.id]);
  expect(Challenge.fromResponse(new Response(null, { status: 402, headers: { [HEADERS.wwwAuthenticate]: header } })).id).toBe(ours.id);
  return ours;
}

describe('mppx 0.11 parses every challenge the purchase machine emits', () => {
  it('card pack: payment-required, and every 402 row that carries a fresh challenge', async () => {
    const world = new World(['declined']);
    const challenge = expectMppxReads(await world.decide(), PAYMENT_METHODS.stripe);
    expect(challenge.opaque).toBeDefined();
    // Each refusal below rides a fresh challenge.
    expectMppxReads(await world.decide({ [HEADERS.paymentAuthorization]: 'Payment !!' }), PAYMENT_METHODS.stripe);
    expect(codeOf(await world.decide({ [HEADERS.paymentAuthorization]: 'Payment !!' }))).toBe(PAYMENT_PROBLEMS.malformedCredential.slug);
    expectMppxReads(await world.decide(paid(challenge, 'spt_1', null)), PAYMENT_METHODS.stripe);
    expectMppxReads(await world.decide(paid(challenge, 'spt_1', NEXT_VERSION)), PAYMENT_METHODS.stripe);
    const declined = await world.decide(paid(challenge, 'spt_1'));
    expect(codeOf(declined)).toBe(PAYMENT_PROBLEMS.verificationFailed.slug);
    expectMppxReads(declined, PAYMENT_METHODS.stripe);
    const redeemed = await world.decide(paid(challenge, 'spt_2'));
    expect(codeOf(redeemed)).toBe(PAYMENT_PROBLEMS.invalidChallenge.slug);
    expectMppxReads(redeemed, PAYMENT_METHODS.stripe);
    const late = await world.challenge();
    world.clock.advance(301);
    const expired = await world.decide(paid(late, 'spt_3'));
    expect(codeOf(expired)).toBe(PAYMENT_PROBLEMS.paymentExpired.slug);
    expectMppxReads(expired, PAYMENT_METHODS.stripe);
  });

  it('single-call card: sized to the call for an unidentified caller and for an agent asking exact, and the pack offered at the resource', async () => {
    const world = new SaleWorld();
    const anonymous = expectMppxReads(answer(await world.anonymous()), PAYMENT_METHODS.stripe);
    expect(anonymous.opaque).toMatchObject({ kind: PURCHASE_KINDS.exact });
    const exact = expectMppxReads(answer(await world.decide({ [HEADERS.purchase]: PURCHASE_KINDS.exact })), PAYMENT_METHODS.stripe);
    expect(exact.opaque).toMatchObject({ kind: PURCHASE_KINDS.exact });
    const pack = expectMppxReads(answer(await world.decide({ [HEADERS.purchase]: PURCHASE_KINDS.pack })), PAYMENT_METHODS.stripe);
    expect(pack.opaque).toMatchObject({ kind: PURCHASE_KINDS.pack });
  });

  it('stablecoin (tempo): the pack offered as a transfer', async () => {
    const world = new TempoWorld();
    expectMppxReads(await world.decide({ [HEADERS.paymentMethods]: PAYMENT_METHODS.tempo }), PAYMENT_METHODS.tempo);
  });

  it('property: any realm, price, currency, processor profile and terms version the deployment sets', async () => {
    const printable = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789.-_ "\\:/'.split('')), minLength: 1, maxLength: 24 });
    await fc.assert(
      fc.asyncProperty(
        printable,
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom('usd', 'eur', 'gbp', 'jpy'),
        fc.option(printable, { nil: undefined }),
        fc.stringMatching(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/),
        fc.stringMatching(/^[a-z0-9_]{1,16}$/),
        async (realm, amount, currency, networkId, version, packId) => {
          const world = new World([], {
            realm,
            terms: { url: 'https://platform.example/doc/terms-of-service', version },
            pack: { packId, price: { amount: String(amount), currency }, creditNano: '5000000000', ...(networkId === undefined ? {} : { networkId }) },
          });
          expectMppxReads(await world.decide(), PAYMENT_METHODS.stripe);
        },
      ),
      { numRuns: 100 },
    );
  });
});
