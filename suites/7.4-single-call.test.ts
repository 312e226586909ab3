import { afterAll, describe, expect } from 'vitest';
import { purchaseAnswerProblems, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import { CAPABILITY_REASONS, type Capability } from '../src/harness/target.js';
import { issueChallenge, challengeEcho, type MemoryFunding, type ChallengeEcho, type SaleCaps } from '../src/purchase/index.js';
import { SINGLE_CALL_OFFERS } from '../src/purchase/sale/offer.js';
import { testToken, type TestTokenOutcome } from '../src/contract/test-tokens.js';
import { REFERENCE_PRICED_PATH, type ReferencePurchases } from '../src/reference/purchases.js';
import { HEADERS } from '../src/spec/headers.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS, PURCHASE_KINDS, type PaymentProblemRecord } from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { PLATFORM_ROUTES } from '../src/spec/wire.js';
import { Buyer, cardPayment, type PaidExchange, type PaidRequestOptions } from './lib/buyer.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.4 single-call sales (with section 3 rows 5 to 7) over HTTP at the reference's priced resource
 * (REFERENCE_PRICED_PATH; the spec names no priced path, so a live deployment is checked there too and the checks
 * are not run when it serves nothing there). A live run presents no payment credential without 'spend'.
 */
const target = suiteTarget();
afterAll(() => target.close());

const E = PURCHASE_ERRORS;
const P = PURCHASE_REQUIREMENTS;
const M = PURCHASE_METHOD_REQUIREMENTS;
const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
let serial = 0;
const NOT_FOUND = 404;

function need(c: CheckContext, ...capabilities: Capability[]): void {
  const missing = capabilities.filter((m) => !target.capabilities.has(m));
  if (missing.length) c.notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
}

async function buyer(c: CheckContext, name: string): Promise<Buyer> {
  return new Buyer(target, `single-call-${name}-${serial++}`, c.record).register();
}

/** A request to the priced resource; not-run when the target serves no priced resource there. */
async function call(c: CheckContext, b: Buyer, options: PaidRequestOptions = {}): Promise<PaidExchange> {
  const answer = await b.post({ path: REFERENCE_PRICED_PATH, ...options });
  if (answer.status === NOT_FOUND) c.notRun(`the target serves no priced single-call resource at ${REFERENCE_PRICED_PATH}`);
  return answer;
}

function expectAnswer(exchange: PaidExchange, expected: PurchaseErrorRecord | PaymentProblemRecord, now: number): void {
  const problems = purchaseAnswerProblems(exchange.response, expected, now);
  if (problems.length) expect.fail(problems.join('\n'));
}

const token = (outcome: TestTokenOutcome) => testToken(outcome, String(serial++));

interface Offered {
  readonly echo: ChallengeEcho;
  readonly version: string;
  readonly amount: number;
  readonly kind: unknown;
}

function offered(exchange: PaidExchange): Offered {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  return {
    echo: first.echo,
    version: exchange.response.headers[HEADERS.termsVersion] ?? '',
    amount: Number((first.challenge.request as { amount?: unknown }).amount ?? NaN),
    kind: first.challenge.opaque?.kind,
  };
}

/** A call challenge and leave to pay it. */
async function payable(c: CheckContext, b: Buyer, options: PaidRequestOptions = {}): Promise<Offered> {
  const offer = offered(await call(c, b, options));
  if (target.spend && !target.spend(offer.amount)) c.notRun(`paying ${offer.amount} would pass the run's --spend-cap`);
  return offer;
}

function purchases(): ReferencePurchases {
  return target.purchases!;
}

function setSale(change: (sale: ReferencePurchases['saleOffer']) => Partial<ReferencePurchases['saleOffer']>): void {
  const p = purchases();
  p.saleOffer = { ...p.saleOffer, ...change(p.saleOffer) };
}

function setCaps(caps: Partial<SaleCaps>): void {
  setSale((sale) => ({ caps: { ...sale.caps, ...caps } }));
}

/** The purchase store's next grant throws (a store outage after the payment settled); later grants work. */

function expectServed(exchange: PaidExchange): void {
  expect(exchange.status, `a bought call is served (2xx), got ${exchange.status} ${exchange.refusal ?? ''}`).toBeGreaterThanOrEqual(200);
  expect(exchange.status).toBeLessThan(300);
  expect(exchange.challengeCount, 'no challenge on a served call').toBe(0);
  expect(exchange.response.headers[HEADERS.paymentReceipt], 'a Payment-Receipt').toBeDefined();
  const terms = termsHeaderProblems(exchange.response);
  if (terms.length) expect.fail(terms.join('\n'));
}

describe(`7.4 single-call sales at ${REFERENCE_PRICED_PATH} (${target.description})`, () => {
  describe('the 402 sized to the call', () => {
    check({
      id: 'single-call.unsigned-402',
      title: 'an unsigned caller gets a 402 (not a 401) with one challenge sized to the call',
      requirements: ids(M.unsignedSizedToCall, P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'unsigned');
        const answer = await call(c, b, { signed: false });
        expectAnswer(answer, PAYMENT_PROBLEMS.paymentRequired, b.now);
        if (target.purchases) {
          const offer = offered(answer);
          expect(offer.amount, 'the challenge quotes the price of one call').toBe(Number(purchases().saleOffer.price.amount));
          expect(offer.kind, 'a single-call challenge').toBe(PURCHASE_KINDS.exact);
        }
      },
    });

    check({
      id: 'single-call.service-purchase',
      title: 'a signed agent sending Service-Purchase: exact is sized to the call; pack gets the pack',
      requirements: ids(M.unsignedSizedToCall),
      level: 'MUST',
      run: async (c) => {
        need(c, 'payment-faults');
        const b = await buyer(c, 'kinds');
        const exact = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.exact } }));
        expect(exact.amount).toBe(Number(purchases().saleOffer.price.amount));
        const pack = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.pack } }));
        expect(pack.amount).toBe(Number(purchases().config.pack.price.amount));
      },
    });

    check({
      id: 'single-call.metered-not-ready',
      title: 'single calls without an agent identity not sold: 503 metered_not_ready',
      requirements: ids(E.metered_not_ready, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'payment-faults');
        const b = await buyer(c, 'not-ready');
        setSale(() => ({ anonymous: false }));
        expectAnswer(await call(c, b, { signed: false }), E.metered_not_ready, b.now);
      },
    });
  });

  describe('buying one call', () => {
    check({
      id: 'single-call.served-once',
      title: 'an exact purchase is served once; the same credential again is 409 call_already_served',
      requirements: ids(E.call_already_served, P.termsOnFunded),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'served');
        const offer = await payable(c, b, { signed: false });
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        expectServed(await call(c, b, { signed: false, headers }));
        expectAnswer(await call(c, b, { signed: false, headers }), E.call_already_served, b.now);
      },
    });

    check({
      id: 'single-call.pack-challenge-for-call',
      title: 'a pack challenge presented for a call: 403 challenge_kind_mismatch',
      requirements: ids(E.challenge_kind_mismatch),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'kind-pack');
        const pack = offered(await b.post({ path: PLATFORM_ROUTES.mppCredits }));
        expectAnswer(await call(c, b, { headers: cardPayment(pack.echo, token('settled'), pack.version) }), E.challenge_kind_mismatch, b.now);
      },
    });

    check({
      id: 'single-call.call-challenge-at-credits',
      title: 'a call challenge presented at /api/mpp/credits: 403 challenge_kind_mismatch',
      requirements: ids(E.challenge_kind_mismatch),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'kind-call');
        const offer = offered(await call(c, b, { headers: { [HEADERS.purchase]: PURCHASE_KINDS.exact } }));
        expectAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.challenge_kind_mismatch, b.now);
      },
    });

    check({
      id: 'single-call.challenge-origin-mismatch',
      title: 'a call challenge issued by another resource: 403 challenge_origin_mismatch',
      requirements: ids(E.challenge_origin_mismatch),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'origin');
        const p = purchases();
        const config = { ...p.config, sale: p.saleOffer };
        const elsewhere = await issueChallenge(p.sale.ports, config, b.now, {
          ...SINGLE_CALL_OFFERS[PAYMENT_METHODS.stripe]!.offer(config, null, p.sale.ports),
          origin: `${REFERENCE_PRICED_PATH}-elsewhere`,
        });
        const answer = await call(c, b, { signed: false, headers: cardPayment(challengeEcho(elsewhere), token('settled'), p.config.terms.version) });
        expectAnswer(answer, E.challenge_origin_mismatch, b.now);
      },
    });

    check({
      id: 'single-call.buyer-inactive',
      title: 'the challenge names an agent that is not active: 403 buyer_inactive',
      requirements: ids(E.buyer_inactive),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'inactive');
        const offer = await payable(c, b);
        purchases().sale.accounts.inactive.add(b.agentUrl);
        expectAnswer(await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.buyer_inactive, b.now);
      },
    });

    check({
      id: 'single-call.metered-unavailable-for-card',
      title: 'per-call card terms changed after the challenge: 403 metered_unavailable_for_card, nothing charged',
      requirements: ids(E.metered_unavailable_for_card),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'card-closed');
        const offer = await payable(c, b);
        setSale(() => ({ cardOpen: false }));
        expectAnswer(await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) }), E.metered_unavailable_for_card, b.now);
        expect(purchases().processor.chargeCalls(), 'charges sent').toBe(0);
      },
    });
  });

  describe('daily caps (429 with Retry-After)', () => {
    const caps: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; signed: boolean; caps: Partial<SaleCaps> }> = [
      { record: E.metered_ip_cap, describe: 'unidentified purchases from one address', signed: false, caps: { ipPerDay: 1 } },
      { record: E.metered_principal_cap, describe: "an agent's exact top-ups", signed: true, caps: { principalPerDay: 1 } },
      { record: E.metered_instrument_cap, describe: 'single-call purchases with one card', signed: true, caps: { instrumentPerDay: 1 } },
      { record: E.metered_platform_ceiling, describe: 'single-call purchases on the whole platform', signed: true, caps: { platformPerDay: 1 } },
    ];
    for (const cap of caps) {
      check({
        id: `single-call.${cap.record.code.replaceAll('_', '-')}`,
        title: `${cap.describe} over the daily limit: ${cap.record.status} ${cap.record.code}`,
        requirements: ids(cap.record, P.noChallengeOnCodes),
        level: 'MUST',
        run: async (c) => {
          need(c, 'spend', 'payment-faults');
          const b = await buyer(c, cap.record.code);
          setCaps(cap.caps);
          // One card behind both tokens, so the card's own cap counts both purchases.
          const [first, second] = [token('settled'), token('settled')];
          purchases().sale.cards.cards.set(first, 'card:suite').set(second, 'card:suite');
          const one = await payable(c, b, { signed: cap.signed, headers: cap.signed ? { [HEADERS.purchase]: PURCHASE_KINDS.exact } : {} });
          expectServed(await call(c, b, { signed: cap.signed, headers: cardPayment(one.echo, first, one.version) }));
          const two = await payable(c, b, { signed: cap.signed, headers: cap.signed ? { [HEADERS.purchase]: PURCHASE_KINDS.exact } : {} });
          expectAnswer(await call(c, b, { signed: cap.signed, headers: cardPayment(two.echo, second, two.version) }), cap.record, b.now);
        },
      });
    }
  });

  describe('after the payment settled', () => {
    check({
      id: 'single-call.sale-serve-pending',
      title: 'the call did not start: 503 sale_serve_pending; the same credential serves it once',
      requirements: ids(E.sale_serve_pending, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'serve-pending');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        purchases().sale.server.enqueue('not-started');
        expectAnswer(await call(c, b, { headers }), E.sale_serve_pending, b.now);
        expectServed(await call(c, b, { headers }));
        expect(purchases().sale.server.ran, 'the call ran once').toHaveLength(1);
        expectAnswer(await call(c, b, { headers }), E.call_already_served, b.now);
      },
    });

    check({
      id: 'single-call.call-in-progress',
      title: 'the same credential presented while its call is being served: 409 call_in_progress; the call runs once',
      requirements: ids(E.call_in_progress),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'in-progress');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const server = purchases().sale.server;
        let during: PaidExchange | undefined;
        server.during = async () => {
          server.during = undefined;
          during = await call(c, b, { headers });
        };
        expectServed(await call(c, b, { headers }));
        if (during === undefined) return expect.fail('the call was never served, so nothing was presented during it');
        expectAnswer(during, E.call_in_progress, b.now);
        expect(server.ran, 'the call ran once').toHaveLength(1);
      },
    });

    check({
      id: 'single-call.grant-failed',
      title: 'the payment settled but the credit could not be recorded: 503 grant_failed; the same credential credits once and serves',
      requirements: ids(E.grant_failed, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'grant-failed');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        purchases().store.failGrants = 1;
        expectAnswer(await call(c, b, { headers }), E.grant_failed, b.now);
        expect(purchases().sale.server.ran, 'the call did not run').toHaveLength(0);
        expectServed(await call(c, b, { headers }));
        expect(purchases().processor.chargeCalls(), 'charged once').toBe(1);
      },
    });

    check({
      id: 'single-call.call-refunded',
      title: 'the call failed and was refunded: the same credential again is 409 call_refunded',
      requirements: ids(E.call_refunded),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'refunded');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        purchases().sale.server.enqueue('throw');
        expectAnswer(await call(c, b, { headers }), E.call_refunded, b.now);
        expectAnswer(await call(c, b, { headers }), E.call_refunded, b.now);
      },
    });

    check({
      id: 'single-call.funding-failed',
      title: 'credited but the call could not be funded: 503 funding_failed with the purchase block',
      requirements: ids(E.funding_failed),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'funding-failed');
        const offer = await payable(c, b);
        (purchases().sale.ports.funding as MemoryFunding).failHold = true;
        const answer = await call(c, b, { headers: cardPayment(offer.echo, token('settled'), offer.version) });
        expectAnswer(answer, E.funding_failed, b.now);
        expect(answer.body?.[PURCHASE_BODY_MEMBERS.purchase], 'the purchase block').toMatchObject({ granted: true });
      },
    });

    check({
      id: 'single-call.funding-unavailable',
      title: 'a balance covering the call whose funding step fails: 503 funding_unavailable, nothing charged',
      requirements: ids(E.funding_unavailable),
      level: 'MUST',
      run: async (c) => {
        need(c, 'payment-faults');
        const b = await buyer(c, 'funding-unavailable');
        const p = purchases();
        await p.store.grant({
          challengeId: `suite-${b.caseId}`,
          buyer: b.agentUrl,
          packId: p.config.pack.packId,
          creditNano: p.config.pack.creditNano,
          chargeId: 'pi_suite',
          method: PAYMENT_METHODS.stripe,
          termsVersion: p.config.terms.version,
          grantedAt: b.now,
        });
        (p.sale.ports.funding as MemoryFunding).failHold = true;
        expectAnswer(await call(c, b), E.funding_unavailable, b.now);
        expect(p.processor.chargeCalls(), 'charges sent').toBe(0);
      },
    });
  });
});
