import { afterAll, describe, expect } from 'vitest';
import { judgeRefusal } from '../src/harness/judge-refusal.js';
import { purchaseAnswerProblems, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import { CAPABILITY_REASONS, type Capability } from '../src/harness/target.js';
import { settleReported, type ChallengeEcho } from '../src/purchase/index.js';
import { testToken, type TestTokenOutcome } from '../src/contract/test-tokens.js';
import { AUTH_CODES } from '../src/spec/auth-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { LIMITS } from '../src/spec/limits.js';
import { PAYMENT_PROBLEMS, PURCHASE_BODY_MEMBERS, REFUND_STATES, type PaymentProblemRecord } from '../src/spec/payments.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { Buyer, cardPayment, type PaidExchange } from './lib/buyer.js';
import { check, type CheckContext } from './lib/check.js';
import { suiteTarget } from './lib/target.js';

/**
 * Section 7.4 (with 3 and 4.7) over HTTP at POST /api/mpp/credits: the 402 challenge, terms acceptance, card
 * credentials, every 403/409/503 the embedded reference can be driven to, and the moves of section 3. A live
 * run presents no payment credential unless it was started with --allow-spend --spend-cap N; it pays with
 * test tokens (spt_test_<outcome>_...), which a deployment in test mode charges with that outcome.
 */
const target = suiteTarget();
afterAll(() => target.close());

const P = PURCHASE_REQUIREMENTS;
const E = PURCHASE_ERRORS;
const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
let serial = 0;

/** Reports the check not-run unless the target has these capabilities. */
function need(c: CheckContext, ...capabilities: Capability[]): void {
  const missing = capabilities.filter((m) => !target.capabilities.has(m));
  if (missing.length) c.notRun(missing.map((m) => CAPABILITY_REASONS[m]).join('; '));
}

async function buyer(c: CheckContext, name: string): Promise<Buyer> {
  return new Buyer(target, `purchase-${name}-${serial++}`, c.record).register();
}

function expectAnswer(exchange: PaidExchange, expected: PurchaseErrorRecord | PaymentProblemRecord, now: number): void {
  const problems = purchaseAnswerProblems(exchange.response, expected, now);
  if (problems.length) expect.fail(problems.join('\n'));
}

/** The one challenge of a 402, with the terms version it names. */
function challengeOf(exchange: PaidExchange): { echo: ChallengeEcho; version: string; amount: number } {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  const version = exchange.response.headers[HEADERS.termsVersion] ?? '';
  const amount = Number((first.challenge.request as { amount?: unknown }).amount ?? NaN);
  return { echo: first.echo, version, amount };
}

/** A challenge from the target, and leave to pay it (a live run takes it from its spending allowance). */
async function payable(c: CheckContext, b: Buyer): Promise<{ echo: ChallengeEcho; version: string }> {
  const offered = challengeOf(await b.post());
  if (target.spend && !target.spend(offered.amount)) c.notRun(`paying ${offered.amount} would pass the run's --spend-cap`);
  return offered;
}

/** A method id no deployment offers (7.4 method-unsupported: the resource does not accept it). */
const UNOFFERED_METHOD = 'unoffered';

const token = (outcome: TestTokenOutcome) => testToken(outcome, String(serial++));

function expectGranted(exchange: PaidExchange): void {
  expect(exchange.status, `a paid purchase answers 200, got ${exchange.status} ${exchange.refusal ?? ''}`).toBe(200);
  expect(exchange.body?.granted, 'body.granted').toBe(true);
  expect(exchange.challengeCount, 'no challenge on a paid answer').toBe(0);
  expect(exchange.response.headers[HEADERS.paymentReceipt], 'a Payment-Receipt').toBeDefined();
}

describe(`7.4 machine purchases at POST /api/mpp/credits (${target.description})`, () => {
  describe('the 402 challenge', () => {
    check({
      id: 'purchase.challenge',
      title: 'a signed request without a credential gets 402 with exactly one Payment challenge, the terms headers and no-store',
      requirements: [...ids(P.challengeShape, P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'challenge');
        const answer = await b.post();
        expectAnswer(answer, PAYMENT_PROBLEMS.paymentRequired, b.now);
        expect(answer.challenges[0]?.challenge.intent, 'intent').toBe('charge');
      },
    });

    check({
      id: 'purchase.unsigned-offered-pack',
      title: 'an unsigned caller without a credential is offered the pack too',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'unsigned');
        expectAnswer(await b.post({ signed: false }), PAYMENT_PROBLEMS.paymentRequired, b.now);
      },
    });

    check({
      id: 'purchase.mpp-not-configured',
      title: 'Service-Payment-Methods naming no method offered: 503 mpp_not_configured, retry without the same credential',
      requirements: ids(E.mpp_not_configured),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'methods');
        expectAnswer(await b.post({ headers: { [HEADERS.paymentMethods]: 'no-such-method' } }), E.mpp_not_configured, b.now);
      },
    });

    check({
      id: 'purchase.verifier-401',
      title: "a signed request that does not verify gets the verifier's 401 on the paid surface",
      requirements: ids(P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'bad-signature');
        const signed = b.kit.request({
          url: b.kit.url('/api/mpp/credits'),
          labels: [{ label: 'sig1', key: b.kit.A, tamper: (s) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) }],
        });
        await target.ready?.(1);
        const response = await target.send({
          method: signed.method,
          url: signed.url,
          headers: signed.headers,
          body: Buffer.from(signed.body_base64 ?? '', 'base64'),
        });
        const judged = judgeRefusal(response, true);
        expect(response.status, 'status').toBe(401);
        expect(judged.code, 'error_code').toBe(AUTH_CODES.signature_invalid);
        if (judged.problems.length) expect.fail(judged.problems.join('\n'));
      },
    });

    check({
      id: 'purchase.malformed-credential',
      title: 'an unreadable credential gets 402 malformed-credential with a fresh challenge',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'malformed');
        expectAnswer(await b.post({ headers: { [HEADERS.paymentAuthorization]: 'Payment not-base64url!' } }), PAYMENT_PROBLEMS.malformedCredential, b.now);
      },
    });
  });

  describe('paying by card', () => {
    check({
      id: 'purchase.granted-then-already-granted',
      title: 'the paid retry is granted, carries the terms headers, and the same credential again is 409 purchase_already_granted',
      requirements: ids(P.termsOnFunded, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'paid');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const paid = await b.post({ headers });
        expectGranted(paid);
        const terms = termsHeaderProblems(paid.response);
        if (terms.length) expect.fail(terms.join('\n'));
        expectAnswer(await b.post({ headers }), E.purchase_already_granted, b.now);
      },
    });

    check({
      id: 'purchase.terms-acceptance-unauthenticated',
      title: 'an unauthenticated credential: 401 terms_acceptance_unauthenticated, nothing charged, no challenge',
      requirements: ids(E.terms_acceptance_unauthenticated),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unauthenticated');
        const offer = await payable(c, b);
        expectAnswer(
          await b.post({ signed: false, headers: cardPayment(offer.echo, token('settled'), offer.version) }),
          E.terms_acceptance_unauthenticated,
          b.now,
        );
      },
    });

    check({
      id: 'purchase.terms-acceptance-required',
      title: 'no assent, or assent the signature does not cover: 402 terms-acceptance-required with a fresh challenge',
      requirements: ids(E['terms-acceptance-required']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'no-assent');
        const offer = await payable(c, b);
        expectAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), null) }), E['terms-acceptance-required'], b.now);
        const uncovered = await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version), cover: [HEADERS.paymentAuthorization] });
        expectAnswer(uncovered, E['terms-acceptance-required'], b.now);
      },
    });

    check({
      id: 'purchase.terms-version-stale',
      title: 'assent to a version that is not current: 402 terms-version-stale with a fresh challenge',
      requirements: ids(E['terms-version-stale']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'stale');
        const offer = await payable(c, b);
        expectAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), `${offer.version}-old`) }), E['terms-version-stale'], b.now);
      },
    });

    check({
      id: 'purchase.method-unsupported',
      title: 'a credential echoing a method the resource does not accept: 400 method-unsupported, no challenge',
      requirements: ids(E['method-unsupported']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'method');
        const offer = await payable(c, b);
        const echo = { ...offer.echo, method: UNOFFERED_METHOD };
        expectAnswer(await b.post({ headers: cardPayment(echo, token('settled'), offer.version) }), E['method-unsupported'], b.now);
      },
    });

    check({
      id: 'purchase.foreign-token',
      title: 'a token that already paid another purchase: 403 foreign_token',
      requirements: ids(E.foreign_token),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'foreign');
        const spent = token('settled');
        const first = await payable(c, b);
        expectGranted(await b.post({ headers: cardPayment(first.echo, spent, first.version) }));
        const second = await payable(c, b);
        expectAnswer(await b.post({ headers: cardPayment(second.echo, spent, second.version) }), E.foreign_token, b.now);
      },
    });
  });

  describe('the moves of section 3', () => {
    check({
      id: 'purchase.declined-fresh-challenge',
      title: 'a declined charge ends in a fresh challenge (402 verification-failed)',
      requirements: ids(P.declineFreshChallenge),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'declined');
        const offer = await payable(c, b);
        expectAnswer(await b.post({ headers: cardPayment(offer.echo, token('declined'), offer.version) }), PAYMENT_PROBLEMS.verificationFailed, b.now);
      },
    });

    check({
      id: 'purchase.challenge-expired',
      title: 'a challenge older than 300 s with no charge: 402 payment-expired with a fresh challenge',
      requirements: [...ids(P.expiredFreshChallenge), LIMITS.paymentChallengeLifetime.id],
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'clock-control');
        const b = await buyer(c, 'expired');
        const offer = await payable(c, b);
        await b.advance(301);
        expectAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }), PAYMENT_PROBLEMS.paymentExpired, b.now);
      },
    });

    check({
      id: 'purchase.charge-processing-resumes',
      title: 'charge_processing, then the same credential resumes the original charge without asking earlier checks again',
      requirements: ids(E.charge_processing, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults', 'clock-control');
        const b = await buyer(c, 'processing');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('processing'), offer.version);
        expectAnswer(await b.post({ headers }), E.charge_processing, b.now);
        const purchases = target.purchases!;
        purchases.config = { ...purchases.config, mppEnabled: false, terms: { ...purchases.config.terms, version: `${offer.version}-next` } };
        await b.advance(600);
        purchases.processor.resolve('pi_1', 'settled');
        expectGranted(await b.post({ headers }));
      },
    });

    check({
      id: 'purchase.charge-outcome-unknown-completes',
      title: 'charge_outcome_unknown, then the same credential completes the same charge once',
      requirements: ids(E.charge_outcome_unknown, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'unknown');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('unknown'), offer.version);
        expectAnswer(await b.post({ headers }), E.charge_outcome_unknown, b.now);
        target.purchases!.processor.resolve('pi_1', 'settled');
        expectGranted(await b.post({ headers }));
        expect(target.purchases!.processor.chargeCalls(), 'one charge at the processor, resumed by its key').toBeLessThanOrEqual(2);
        expect(target.purchases!.processor.charges.size, 'charges created').toBe(1);
      },
    });

    check({
      id: 'purchase.settlement-credited-once',
      title: 'a settlement reported by the processor is credited once; the credential presented later is 409',
      requirements: ids(P.settledCreditedOnce, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'reported');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('processing'), offer.version);
        expectAnswer(await b.post({ headers }), E.charge_processing, b.now);
        const purchases = target.purchases!;
        purchases.processor.resolve('pi_1', 'settled');
        expect(await settleReported({ chargeId: 'pi_1' }, purchases.ports)).toMatchObject({ credited: true });
        expect(await settleReported({ chargeId: 'pi_1' }, purchases.ports)).toMatchObject({ credited: false, reason: 'already-credited' });
        expect(purchases.store.balance(b.agentUrl), 'balance').toBe(purchases.config.pack.creditNano);
        expectAnswer(await b.post({ headers }), E.purchase_already_granted, b.now);
      },
    });
  });

  describe('refusals before anything is charged (deployment faults and switches)', () => {
    const faults: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; arrange: (b: Buyer) => void }> = [
      {
        record: E.mpp_disabled,
        describe: 'buying is not open',
        arrange: () => (target.purchases!.config = { ...target.purchases!.config, mppEnabled: false }),
      },
      {
        record: E.purchases_disabled,
        describe: 'purchases are closed in every market',
        arrange: () => (target.purchases!.config = { ...target.purchases!.config, purchasesOpen: false }),
      },
      {
        record: E.purchases_unavailable_region,
        describe: "the card's market is closed",
        arrange: () => (target.purchases!.config = { ...target.purchases!.config, closedMarkets: [target.purchases!.processor.defaultCountry ?? 'US'] }),
      },
      {
        record: E.ownerless_balance_cap,
        describe: 'an ownerless agent at the cap',
        arrange: (b) => {
          target.purchases!.buyers.ownerless.add(b.agentUrl);
          target.purchases!.config = { ...target.purchases!.config, ownerlessBalanceCapNano: '0' };
        },
      },
      { record: E.purchase_lock_unavailable, describe: 'the purchase lock is down', arrange: () => (target.purchases!.lock.unavailable = true) },
      { record: E.purchase_in_flight, describe: "another of the buyer's purchases is settling", arrange: (b) => target.purchases!.lock.hold(b.agentUrl) },
      { record: E.terms_record_failed, describe: 'the assent cannot be recorded', arrange: () => (target.purchases!.store.failAssent = true) },
    ];
    for (const fault of faults) {
      check({
        id: `purchase.${fault.record.code.replaceAll('_', '-')}`,
        title: `${fault.describe}: ${fault.record.status} ${fault.record.code}, nothing charged`,
        requirements: ids(fault.record, P.noChallengeOnCodes),
        level: 'MUST',
        run: async (c) => {
          need(c, 'spend', 'payment-faults');
          const b = await buyer(c, fault.record.code);
          const offer = await payable(c, b);
          fault.arrange(b);
          expectAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }), fault.record, b.now);
          expect(target.purchases!.processor.chargeCalls(), 'charges sent').toBe(0);
        },
      });
    }

    check({
      id: 'purchase.payment-unreconciled',
      title: 'a token whose payment matched nothing sold and was refunded: 503 payment_unreconciled with the refund state',
      requirements: ids(E.payment_unreconciled),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'unreconciled');
        const offer = await payable(c, b);
        const stray = token('settled');
        await settleReported({ chargeId: 'pi_stray', token: stray }, target.purchases!.ports);
        const answer = await b.post({ headers: cardPayment(offer.echo, stray, offer.version) });
        expectAnswer(answer, E.payment_unreconciled, b.now);
        expect(answer.body?.[PURCHASE_BODY_MEMBERS.refund], 'refund state').toBe(REFUND_STATES.issued);
      },
    });
  });
});
