import { afterAll, describe, expect } from 'vitest';
import { judgeRefusal } from '../src/harness/judge-refusal.js';
import { errorCodeOf, termsHeaderProblems } from '../src/harness/judge-purchase.js';
import { CAPABILITY_REASONS, type Capability } from '../src/harness/target.js';
import { decodeBase64urlJson, parseAuthenticate, type ChallengeEcho, type FakeChargeState } from '../src/purchase/index.js';
import { REFERENCE_PRICED_PATH, type ReferencePurchases } from '../src/reference/purchases.js';
import { AUTH_CODES } from '../src/spec/auth-errors.js';
import { HEADERS } from '../src/spec/headers.js';
import { LIMITS } from '../src/spec/limits.js';
import {
  CREDENTIAL_MEMBERS,
  PAYMENT_METHOD_OF,
  PAYMENT_PROBLEMS,
  PURCHASE_BODY_MEMBERS,
  PURCHASE_KINDS,
  REFUND_STATES,
  STRIPE_PAYLOAD_MEMBERS,
  type PaymentProblemRecord,
} from '../src/spec/payments.js';
import { PURCHASE_METHOD_REQUIREMENTS } from '../src/spec/purchase-method-requirements.js';
import { PURCHASE_REQUIREMENTS } from '../src/spec/purchase-requirements.js';
import { PURCHASE_ERRORS } from '../src/spec/purchase-errors.js';
import { CHALLENGE_EXPIRY_TOLERANCE_S, READINGS } from '../src/spec/readings.js';
import type { PurchaseErrorRecord } from '../src/spec/types.js';
import { AUTH_SCHEMES, PLATFORM_ROUTES } from '../src/spec/wire.js';
import {
  arrange,
  Buyer,
  cardPayment,
  freshTestToken,
  expectPaidAnswer,
  expectPaidAnswerOf,
  expectSucceeded,
  needCapabilities,
  type PaidExchange,
} from './lib/buyer.js';
import { AGENT_STATES, TOKEN_STATES, type AgentState } from '../src/contract/test-control.js';
import { check, type CheckContext } from './lib/check.js';
import { PREFER_TEMPO, signTransfer, stablecoinCredential, tempoOffer } from './lib/stablecoin.js';
import { suiteTarget } from './lib/target.js';
import { checkTimeout } from './lib/context.js';
import { agingWaitSeconds } from '../src/harness/live-waits.js';
import { paymentLiteral } from '../src/scenarios/purchases/dsl.js';

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
const LIFETIME_S = LIMITS.paymentChallengeLifetime.value;

/** Why a check that ages a challenge past its lifetime is not run live without --allow-waits. */
const AGING_REASON = `needs clock-control: the challenge must age past ${LIFETIME_S} s; in-process the target's clock moves, and against a live deployment the run waits for it in real time (over ${LIFETIME_S / 60} minutes) with --allow-waits`;

/** A check that ages a challenge waits that long live (--allow-waits): its time limit grows by the wait. */
function agingTimeout(checkId: string): number | undefined {
  return target.kind === 'live' && target.capabilities.has('clock-control') ? agingWaitSeconds(checkId) * 1000 + checkTimeout(60_000) : undefined;
}
/** Reports the check not-run unless the target has these capabilities. */
const need = (c: CheckContext, ...capabilities: Capability[]) => needCapabilities(target, c, ...capabilities);

function needAging(c: CheckContext): void {
  if (!target.capabilities.has('clock-control')) c.notRun(AGING_REASON);
}

/**
 * The card processor, on its own, takes the charge a token paid to `outcome`; with `report` it also tells the deployment
 * (its settlement webhook). In-process the embedded reference's processor; live the deployment's test control.
 */
async function processorFinishes(c: CheckContext, paying: string, outcome: 'settled' | 'declined' | 'cancelled-unsettled', report = false): Promise<void> {
  const request = report
    ? ({ state: TOKEN_STATES.settlementReported, token: paying } as const)
    : ({ state: TOKEN_STATES.chargeFinishes, token: paying, outcome } as const);
  await arrange(target, c, request, (p) => p.processorFinishes(paying, outcome, report));
}

/** What the embedded reference's own records say (in-process only): live, a check judges the deployment's answers alone. */
function records(): ReferencePurchases | undefined {
  return target.purchases;
}

/** In-process, the card processor was never asked to charge (live the refusal's answer is all there is to judge). */
function expectNothingCharged(): void {
  const p = records();
  if (p) expect(p.processor.chargeCalls(), 'charges sent').toBe(0);
}

/** In-process, the buyer's balance holds the pack's credit once (live the 409 that follows is the deployment's word). */
async function expectCreditedOnce(b: Buyer): Promise<void> {
  const p = records();
  if (p) expect(await p.store.balance(b.agentUrl), "the deployment's balance for the buyer").toBe(p.config.pack.creditNano);
}

/** In-process, the buyer's balance by the deployment's records ('0' live, where a refusal's answer is all there is to judge). */
async function creditedBalance(b: Buyer): Promise<string> {
  const p = records();
  return p ? String(await p.store.balance(b.agentUrl)) : '0';
}

async function buyer(c: CheckContext, name: string): Promise<Buyer> {
  return new Buyer(target, `purchase-${name}-${serial++}`, c.record).register();
}

/** The one challenge of a 402, with the terms version it names. */
function challengeOf(exchange: PaidExchange): { echo: ChallengeEcho; version: string; amount: number } {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  const version = exchange.termsVersion ?? '';
  const amount = Number((first.challenge.request as { amount?: unknown }).amount ?? Number.NaN);
  return { echo: first.echo, version, amount };
}

/** Leave to pay what a challenge quotes (a live run takes it from its spending allowance). */
function mayPay(c: CheckContext, offered: { amount: number }): void {
  if (target.spend && !target.spend(offered.amount)) c.notRun(`paying ${offered.amount} would pass the run's --spend-cap`);
}

/** A challenge from the target, and leave to pay it. */
async function payable(c: CheckContext, b: Buyer): Promise<{ echo: ChallengeEcho; version: string; amount: number }> {
  const offered = challengeOf(await b.post());
  mayPay(c, offered);
  return offered;
}

/** A host that is not the platform's own (an alias or custom domain): a signature made for it is not made for the platform (5.2). */
const ALIAS_HOST = 'alias-of-the-platform.example';

/** A method id no deployment offers (7.4 method-unsupported: the resource does not accept it). */
const UNOFFERED_METHOD = 'unoffered';

const token = freshTestToken;

/** A refusal with `problem` that carries a fresh challenge (section 3), which the buyer then pays and is granted. */
async function expectFreshChallengePaid(c: CheckContext, b: Buyer, refused: PaidExchange, problem: PaymentProblemRecord): Promise<void> {
  expectPaidAnswer(refused, problem);
  const fresh = challengeOf(refused);
  mayPay(c, fresh);
  expectGranted(await b.post({ headers: cardPayment(fresh.echo, token('settled'), fresh.version) }));
}

/** A paid purchase: the route's success (2xx; 4.7 shows no body), no challenge, and a Payment-Receipt. */
function expectGranted(exchange: PaidExchange): void {
  expectSucceeded(exchange, 'a paid purchase');
  expect(exchange.response.headers[HEADERS.paymentReceipt], 'a Payment-Receipt').toBeDefined();
}

/** 7.4: "403 and 503 carry no challenge": no WWW-Authenticate field at all, of the Payment scheme or any other. */
function expectNoChallengeField(exchange: PaidExchange): void {
  const field = exchange.response.headers[HEADERS.wwwAuthenticate];
  expect(field, `a ${exchange.status} carries no challenge (7.4), yet ${HEADERS.wwwAuthenticate} is ${JSON.stringify(field)}`).toBeUndefined();
}

/**
 * The 401 terms_acceptance_unauthenticated: its row, the error_description every 401 on a paid surface carries, and
 * a WWW-Authenticate with at least one challenge, none of the Payment scheme (READING-UNAUTHENTICATED-PURCHASE-401).
 */
function expectAcceptanceUnauthenticated(exchange: PaidExchange): void {
  expectPaidAnswer(exchange, E.terms_acceptance_unauthenticated);
  const description = exchange.body?.[PURCHASE_BODY_MEMBERS.errorDescription];
  expect(
    typeof description === 'string' && description !== '',
    `the 401 carries an ${PURCHASE_BODY_MEMBERS.errorDescription}, got ${JSON.stringify(description)}`,
  ).toBe(true);
  const field = exchange.response.headers[HEADERS.wwwAuthenticate];
  const parsed = field === undefined ? undefined : parseAuthenticate(field);
  const schemes = parsed?.ok ? parsed.challenges.map((c) => c.scheme) : [];
  const payment = schemes.some((scheme) => scheme.toLowerCase() === AUTH_SCHEMES.payment.toLowerCase());
  expect(
    schemes.length > 0 && !payment,
    `a 401 carries ${HEADERS.wwwAuthenticate} with at least one challenge (RFC 9110 15.5.2), none of the ${AUTH_SCHEMES.payment} scheme (${READINGS.unauthenticatedPurchaseChallenge.id}); got ${JSON.stringify(field ?? null)}`,
  ).toBe(true);
}

/**
 * In-process only: holds the next call of one of the reference's port methods until released, so that another
 * presentation can run to its end in between (a race the suite makes deterministic). `held` resolves once a call waits.
 */
function holdNextCall<T extends object>(object: T, method: keyof T & string): { held: Promise<void>; release: () => void } {
  const original = object[method] as (...args: unknown[]) => unknown;
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = new Promise<void>((resolve) => (reached = resolve));
  Object.assign(object, {
    [method]: async function (this: unknown, ...args: unknown[]) {
      Object.assign(object, { [method]: original });
      reached();
      await gate;
      return original.apply(this, args);
    },
  });
  return { held, release };
}

/**
 * The paid retry of a stablecoin challenge (7.4): a signed Tempo transaction making the one transferWithMemo it
 * quotes, valid until its expiry, with the assent and the methods hint.
 */
async function stablecoinPayment(exchange: PaidExchange): Promise<Record<string, string>> {
  const offer = tempoOffer(exchange, 'the stablecoin challenge');
  return { ...PREFER_TEMPO, ...stablecoinCredential(offer, await signTransfer(offer)) };
}

/** The payment a success names: the reference of its Payment-Receipt (the Payment scheme draft: base64url JSON). */
function receiptReference(exchange: PaidExchange): string | undefined {
  const decoded = decodeBase64urlJson(exchange.response.headers[HEADERS.paymentReceipt] ?? '');
  const reference = decoded.ok ? (decoded.value as { reference?: unknown } | null)?.reference : undefined;
  return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

/** 503s that ask for the same credential again. */
const SAME_CREDENTIAL_503S: readonly PurchaseErrorRecord[] = Object.values(E).filter((r) => r.status === 503 && r.retry?.sameCredential === true);

/**
 * READING-CONCURRENT-REDEMPTION: a presentation of a credential another presentation redeemed meanwhile is that one
 * purchase told again (a success naming the same payment), 409 purchase_already_granted, or a 503 asking for the same
 * credential again; never a refusal of the credential, never a second credit.
 */
function expectSamePurchase(late: PaidExchange, first: PaidExchange): void {
  if (late.status >= 200 && late.status < 300) {
    expect(receiptReference(late), `a second success names the payment of the first (${READINGS.concurrentRedemption.id})`).toBe(receiptReference(first));
    return;
  }
  const code = errorCodeOf(late.body);
  const settling = SAME_CREDENTIAL_503S.find((r) => r.code === code && late.status === 503);
  if (settling) return expectPaidAnswer(late, settling);
  if (late.status !== 409)
    expect.fail(
      `the credential presented while another presentation redeemed it was answered ${late.status} ${late.refusal ?? ''}: it is that purchase, answered 409 ${E.purchase_already_granted.code}, a success naming the same payment, or a 503 asking for the same credential (${READINGS.concurrentRedemption.id})`,
    );
  expectPaidAnswer(late, E.purchase_already_granted);
}

/**
 * The refund state a payment_unreconciled body says (7.4: "body says whether the refund is issued or pending"; the
 * member is not named, READING-PURCHASE-BODY-MEMBERS): the reference's `refund`, else any member holding one.
 */
function refundStateOf(body: Record<string, unknown> | undefined): unknown {
  const states: readonly unknown[] = Object.values(REFUND_STATES);
  const named = body?.[PURCHASE_BODY_MEMBERS.refund];
  if (states.includes(named)) return named;
  const found: unknown[] = [];
  const walk = (value: unknown): void => {
    if (states.includes(value)) found.push(value);
    else if (value !== null && typeof value === 'object') for (const member of Object.values(value)) walk(member);
  };
  walk(body);
  return found[0];
}

describe(`7.4 machine purchases at POST /api/mpp/credits (${target.description})`, () => {
  describe('the 402 challenge', () => {
    check({
      id: 'purchase.challenge',
      title:
        'a signed request without a credential gets 402 with exactly one Payment challenge expiring 300 s after the answer, the terms headers and no-store',
      requirements: [...ids(P.challengeShape, P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'challenge');
        const answer = await b.post();
        expectPaidAnswer(answer, PAYMENT_PROBLEMS.paymentRequired);
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
        expectPaidAnswer(await b.post({ signed: false }), PAYMENT_PROBLEMS.paymentRequired);
      },
    });

    check({
      id: 'purchase.mpp-not-configured',
      title: 'Service-Payment-Methods naming no method offered: 503 mpp_not_configured, retry without the same credential',
      requirements: ids(E.mpp_not_configured),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'methods');
        expectPaidAnswer(await b.post({ headers: { [HEADERS.paymentMethods]: 'no-such-method' } }), E.mpp_not_configured);
      },
    });

    check({
      id: 'purchase.payment-methods-list',
      title:
        'Service-Payment-Methods is read as an HTTP list: a method not offered, an empty element and the card, with spaces after the commas, get a card challenge',
      requirements: ids(PURCHASE_METHOD_REQUIREMENTS.methodsHint),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'methods-list');
        // RFC 9110 5.6.1: optional whitespace around the commas, and empty elements a recipient ignores; card is always accepted (7.4).
        const listed = `${UNOFFERED_METHOD}, , ${PAYMENT_METHOD_OF.card}`;
        const answer = await b.post({ headers: { [HEADERS.paymentMethods]: listed } });
        expectPaidAnswerOf(`${HEADERS.paymentMethods}: ${listed}`, answer, PAYMENT_PROBLEMS.paymentRequired);
        expect(answer.challenges[0]?.challenge.method, 'the method the challenge names').toBe(PAYMENT_METHOD_OF.card);
      },
    });

    check({
      id: 'purchase.verifier-401',
      title: "a signed request that does not verify gets the verifier's 401 on the paid surface",
      requirements: ids(P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'bad-signature');
        await target.ready?.(1);
        b.sync();
        const answer = await b.send(
          b.kit.request({
            url: b.kit.url(PLATFORM_ROUTES.mppCredits),
            labels: [{ label: 'sig1', key: b.kit.A, tamper: (s) => s.map((x, i) => (i === 0 ? x ^ 1 : x)) }],
          }),
        );
        const judged = judgeRefusal(answer.response, true, target.environment.naming);
        expect(answer.status, 'status').toBe(401);
        expect(judged.code, 'error_code').toBe(AUTH_CODES.signature_invalid);
        if (judged.problems.length) expect.fail(judged.problems.join('\n'));
      },
    });

    check({
      id: 'purchase.cli-token-same-refusal',
      title: 'POST /api/auth/cli/token refuses a signed request with the same error_code and error_description as the paid surface refuses it',
      requirements: ids(P.cliTokenSameRefusal, P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'cli-token');
        const skew = LIMITS.clockSkew.value;
        // Expired well past the skew; the second is also signed for another host, so an order of checks decides its code.
        const faults: ReadonlyArray<{ readonly name: string; readonly url: (path: string) => string }> = [
          { name: 'an expired signature', url: (path) => b.kit.url(path) },
          { name: 'an expired signature made for another host', url: (path) => b.kit.onHost(ALIAS_HOST, path) },
        ];
        for (const fault of faults) {
          // A description may quote the time (how long ago it expired): live, the pair is sent again if the second turned between them.
          const attempts = target.kind === 'live' ? 3 : 1;
          let differences: string[] = [];
          for (let attempt = 0; attempt < attempts; attempt++) {
            await target.ready?.(2);
            const now = b.sync();
            const signed = (path: string) => b.kit.request({ url: fault.url(path), created: now - 3 * skew, expires: now - 2 * skew });
            const cli = await b.send(signed(PLATFORM_ROUTES.cliToken));
            const paid = await b.send(signed(PLATFORM_ROUTES.mppCredits));
            expect(cli.status, `${PLATFORM_ROUTES.cliToken} refuses ${fault.name}`).toBe(401);
            expect(paid.status, `${PLATFORM_ROUTES.mppCredits} refuses ${fault.name}`).toBe(401);
            differences = [PURCHASE_BODY_MEMBERS.errorCode, PURCHASE_BODY_MEMBERS.errorDescription].flatMap((member) =>
              cli.body?.[member] === paid.body?.[member] && typeof cli.body?.[member] === 'string'
                ? []
                : [
                    `${fault.name}: ${member} ${JSON.stringify(cli.body?.[member])} at ${PLATFORM_ROUTES.cliToken}, ${JSON.stringify(paid.body?.[member])} on the paid surface`,
                  ],
            );
            if (differences.length === 0) break;
          }
          if (differences.length) expect.fail(differences.join('\n'));
        }
      },
    });

    check({
      id: 'purchase.malformed-credential',
      title:
        'an unreadable credential (not base64url; not one token; no token; base64url of text that is not JSON, or of bytes that are not UTF-8; JSON null, an array, no challenge object, a challenge that is a string) gets 402 malformed-credential with a fresh challenge',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        const b = await buyer(c, 'malformed');
        const payload = { [STRIPE_PAYLOAD_MEMBERS.spt]: token('settled') };
        const unreadable = [
          'Payment not-base64url!',
          'Payment two tokens',
          'Payment',
          `Payment ${Buffer.from('{"challenge": not JSON').toString('base64url')}`,
          `Payment ${Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64url')}`,
          paymentLiteral(null),
          paymentLiteral([]),
          paymentLiteral({ [CREDENTIAL_MEMBERS.payload]: payload }),
          paymentLiteral({ [CREDENTIAL_MEMBERS.challenge]: 'a challenge id', [CREDENTIAL_MEMBERS.payload]: payload }),
        ];
        for (const credential of unreadable) {
          const answer = await b.post({ headers: { [HEADERS.paymentAuthorization]: credential } });
          expectPaidAnswerOf(`${HEADERS.paymentAuthorization}: ${credential}`, answer, PAYMENT_PROBLEMS.malformedCredential);
        }
      },
    });
  });

  describe('challenges the deployment did not issue', () => {
    check({
      id: 'purchase.challenge-not-issued',
      title:
        'a credential echoing a challenge id never issued, or an issued challenge with a member changed, gets 402 invalid-challenge with a fresh challenge, nothing charged',
      requirements: ids(P.challengeShape),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'not-issued');
        const offer = await payable(c, b);
        const last = offer.echo.id.endsWith('A') ? 'B' : 'A';
        const forged: ReadonlyArray<readonly [string, ChallengeEcho]> = [
          ['an id never issued', { ...offer.echo, id: `${offer.echo.id.slice(0, -1)}${last}` }],
          ['the realm changed', { ...offer.echo, realm: `${offer.echo.realm}.example` }],
        ];
        for (const [what, echo] of forged) {
          const answer = await b.post({ headers: cardPayment(echo, token('settled'), offer.version) });
          expectPaidAnswerOf(what, answer, PAYMENT_PROBLEMS.invalidChallenge);
        }
        expectNothingCharged();
      },
    });
  });

  describe('paying by card', () => {
    check({
      id: 'purchase.granted-then-already-granted',
      title: 'the paid retry succeeds, carries the terms headers, and the same credential again is 409 purchase_already_granted',
      requirements: ids(P.termsOnFunded, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'paid');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const paid = await b.post({ headers });
        expectGranted(paid);
        const terms = termsHeaderProblems(paid.response, paid.facts);
        if (terms.length) expect.fail(terms.join('\n'));
        expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
      },
    });

    check({
      id: 'purchase.terms-acceptance-unauthenticated',
      title:
        'an unauthenticated credential: 401 terms_acceptance_unauthenticated with an error_description and a WWW-Authenticate challenge that is not Payment, nothing charged',
      requirements: ids(E.terms_acceptance_unauthenticated, P.verifierCodeOnPaidSurface),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unauthenticated');
        const offer = await payable(c, b);
        expectAcceptanceUnauthenticated(await b.post({ signed: false, headers: cardPayment(offer.echo, token('settled'), offer.version) }));
        expectNothingCharged();
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
        expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), null) }), E['terms-acceptance-required']);
        const uncovered = await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version), cover: [HEADERS.paymentAuthorization] });
        expectPaidAnswer(uncovered, E['terms-acceptance-required']);
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
        expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, token('settled'), `${offer.version}-old`) }), E['terms-version-stale']);
      },
    });

    check({
      id: 'purchase.terms-changed-after-challenge',
      title:
        "terms changed after the challenge was issued: its credential with assent to the new version gets 402 terms-version-stale (the challenge's version is no longer current) with a fresh challenge naming the new version, nothing charged",
      requirements: ids(E['terms-version-stale']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'terms-changed');
        const offer = await payable(c, b);
        const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
        const next = `${offer.version}-next`;
        p.config = { ...p.config, terms: { ...p.config.terms, version: next } };
        const answer = await b.post({ headers: cardPayment(offer.echo, token('settled'), next) });
        expectPaidAnswer(answer, E['terms-version-stale']);
        expect(challengeOf(answer).version, 'the fresh challenge names the new version').toBe(next);
        expectNothingCharged();
      },
    });

    check({
      id: 'purchase.card-payload-without-token',
      title:
        'a card credential whose payload carries no shared payment token (none, an empty string, a number) gets a 402 with a fresh challenge (invalid-payload, malformed-credential or verification-failed), never the pack',
      requirements: ids(E['invalid-payload']),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'no-token');
        const offer = await payable(c, b);
        const payloads: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
          ['no token', {}],
          ['an empty token', { [STRIPE_PAYLOAD_MEMBERS.spt]: '' }],
          ['a token that is a number', { [STRIPE_PAYLOAD_MEMBERS.spt]: 4242 }],
        ];
        const allowed = [E['invalid-payload'], PAYMENT_PROBLEMS.malformedCredential, PAYMENT_PROBLEMS.verificationFailed];
        for (const [what, payload] of payloads) {
          const answer = await b.post({
            headers: {
              [HEADERS.paymentAuthorization]: paymentLiteral({ [CREDENTIAL_MEMBERS.challenge]: offer.echo, [CREDENTIAL_MEMBERS.payload]: payload }),
              [HEADERS.termsAccepted]: offer.version,
            },
          });
          // READING-CARD-PAYLOAD-WITHOUT-TOKEN: the payload is readable but carries nothing the card method can charge.
          const refusal = allowed.find((r) => answer.refusal === ('slug' in r ? r.slug : r.code)) ?? E['invalid-payload'];
          expectPaidAnswerOf(`${what} (${READINGS.cardPayloadWithoutToken.id})`, answer, refusal);
        }
        expect(await creditedBalance(b), 'nothing credited').toBe('0');
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
        expectPaidAnswer(await b.post({ headers: cardPayment(echo, token('settled'), offer.version) }), E['method-unsupported']);
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
        expectPaidAnswer(await b.post({ headers: cardPayment(second.echo, spent, second.version) }), E.foreign_token);
      },
    });
  });

  describe('the moves of section 3', () => {
    check({
      id: 'purchase.declined-fresh-challenge',
      title: 'a declined charge, and an intent cancelled unsettled, end in a fresh challenge (402 verification-failed) that can be paid',
      requirements: ids(P.declineFreshChallenge),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        for (const outcome of ['declined', 'cancelled'] as const) {
          const b = await buyer(c, outcome);
          const offer = await payable(c, b);
          const refused = await b.post({ headers: cardPayment(offer.echo, token(outcome), offer.version) });
          await expectFreshChallengePaid(c, b, refused, PAYMENT_PROBLEMS.verificationFailed);
        }
      },
    });

    check({
      id: 'purchase.resumed-decline-fresh-challenge',
      title: 'a resumed charge whose processor reports a decline, or an intent cancelled unsettled, ends in a fresh challenge',
      requirements: ids(P.declineFreshChallenge, E.charge_processing),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        for (const state of ['declined', 'cancelled-unsettled'] as const satisfies readonly FakeChargeState[]) {
          const b = await buyer(c, `resumed-${state}`);
          const offer = await payable(c, b);
          const paying = token('processing');
          const headers = cardPayment(offer.echo, paying, offer.version);
          expectPaidAnswer(await b.post({ headers }), E.charge_processing);
          await processorFinishes(c, paying, state);
          const refused = await b.post({ headers });
          await expectFreshChallengePaid(c, b, refused, PAYMENT_PROBLEMS.verificationFailed);
        }
      },
    });

    check({
      id: 'purchase.challenge-honoured-until-expiry',
      title: `a challenge is honoured until it expires: paid ${LIFETIME_S - CHALLENGE_EXPIRY_TOLERANCE_S} s after it was issued, the purchase succeeds`,
      requirements: [...ids(P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
      level: 'MUST',
      ...(agingTimeout('purchase.challenge-honoured-until-expiry') ? { timeout: agingTimeout('purchase.challenge-honoured-until-expiry') } : {}),
      run: async (c) => {
        need(c, 'spend');
        needAging(c);
        const b = await buyer(c, 'honoured');
        const offer = await payable(c, b);
        await b.advance(LIFETIME_S - CHALLENGE_EXPIRY_TOLERANCE_S);
        expectGranted(await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) }));
      },
    });

    check({
      id: 'purchase.challenge-expired',
      title: 'a challenge older than 300 s with no charge: 402 payment-expired with a fresh challenge, which can be paid',
      requirements: [...ids(P.expiredFreshChallenge, P.challengeLifetime), LIMITS.paymentChallengeLifetime.id],
      level: 'MUST',
      ...(agingTimeout('purchase.challenge-expired') ? { timeout: agingTimeout('purchase.challenge-expired') } : {}),
      run: async (c) => {
        need(c, 'spend');
        needAging(c);
        const b = await buyer(c, 'expired');
        const offer = await payable(c, b);
        await b.advance(LIFETIME_S + CHALLENGE_EXPIRY_TOLERANCE_S + 1);
        const refused = await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) });
        await expectFreshChallengePaid(c, b, refused, PAYMENT_PROBLEMS.paymentExpired);
      },
    });

    check({
      id: 'purchase.expired-settled-credited',
      title: 'a payment that settles after its challenge expired is still credited, once; the credential then answers 409',
      requirements: ids(P.expiredFreshChallenge, P.settledCreditedOnce, E.purchase_already_granted),
      level: 'MUST',
      ...(agingTimeout('purchase.expired-settled-credited') ? { timeout: agingTimeout('purchase.expired-settled-credited') } : {}),
      run: async (c) => {
        need(c, 'spend');
        needAging(c);
        const b = await buyer(c, 'expired-settled');
        const offer = await payable(c, b);
        const paying = token('processing');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        await b.advance(LIFETIME_S + CHALLENGE_EXPIRY_TOLERANCE_S + 1);
        await processorFinishes(c, paying, 'settled', true);
        await expectCreditedOnce(b);
        expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
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
        const paying = token('processing');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
        p.config = { ...p.config, mppEnabled: false, terms: { ...p.config.terms, version: `${offer.version}-next` } };
        await b.advance(600);
        await p.processorFinishes(paying, 'settled');
        expectGranted(await b.post({ headers }));
      },
    });

    check({
      id: 'purchase.charge-processing-503',
      title: 'a charge the card processor leaves processing: 503 charge_processing with no challenge, and the same credential again is answered so again',
      requirements: ids(E.charge_processing, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'processing-503');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('processing'), offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        // The same credential resumes the same charge, which the processor still reports processing (no fresh challenge, no grant).
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        if (target.purchases) expect(target.purchases.processor.charges.size, 'charges created').toBe(1);
      },
    });

    check({
      id: 'purchase.resume-unauthenticated',
      title:
        'a credential whose charge is still processing, presented again without authentication: 401 terms_acceptance_unauthenticated, or the resumed charge (503 charge_processing); never a credit',
      requirements: ids(E.terms_acceptance_unauthenticated, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'resume-unsigned');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('processing'), offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        // Section 3 resumes the charge "Always"; the 401 row takes acceptance only from the buying agent: either answer fits.
        const again = await b.post({ signed: false, headers });
        if (again.status === 401) expectAcceptanceUnauthenticated(again);
        else expectPaidAnswerOf('the same credential, unauthenticated', again, E.charge_processing);
        expect(await creditedBalance(b), 'nothing credited').toBe('0');
      },
    });

    check({
      id: 'purchase.call-charge-not-resumed-here',
      title:
        "a single call's credential whose card charge was sent at the priced resource, presented at /api/mpp/credits: 403 challenge_kind_mismatch or challenge_origin_mismatch, not that charge resumed as a pack",
      requirements: ids(E.challenge_kind_mismatch, E.challenge_origin_mismatch, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'call-at-pack');
        // A signed agent asks for a single call with Service-Purchase: exact, covered (READING-PURCHASE-KIND-DEFAULT).
        const asked = await b.post({ path: REFERENCE_PRICED_PATH, headers: { [HEADERS.purchase]: PURCHASE_KINDS.exact } });
        if (asked.status === 404) c.notRun(`the target serves no priced single-call resource at ${REFERENCE_PRICED_PATH}`);
        const offer = challengeOf(asked);
        mayPay(c, offer);
        const headers = cardPayment(offer.echo, token('processing'), offer.version);
        expectPaidAnswer(await b.post({ path: REFERENCE_PRICED_PATH, headers }), E.charge_processing);
        // 7.4: a single-call challenge is redeemed only where issued, and a call challenge is not a pack's.
        const here = await b.post({ headers });
        expectPaidAnswerOf(
          `the call's credential at ${PLATFORM_ROUTES.mppCredits}`,
          here,
          here.refusal === E.challenge_origin_mismatch.code ? E.challenge_origin_mismatch : E.challenge_kind_mismatch,
        );
        expect(await creditedBalance(b), 'nothing credited').toBe('0');
      },
    });

    check({
      id: 'purchase.forged-echo-after-charge',
      title:
        'a credential carrying the token of a charge already sent but echoing its challenge with the realm changed is not that credential: 402 invalid-challenge with a fresh challenge, the charge not resumed',
      requirements: ids(P.challengeShape, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'forged-after-charge');
        const offer = await payable(c, b);
        const paying = token('processing');
        expectPaidAnswer(await b.post({ headers: cardPayment(offer.echo, paying, offer.version) }), E.charge_processing);
        const forged = { ...offer.echo, realm: `${offer.echo.realm}.example` };
        expectPaidAnswerOf('the realm changed', await b.post({ headers: cardPayment(forged, paying, offer.version) }), PAYMENT_PROBLEMS.invalidChallenge);
      },
    });

    check({
      id: 'purchase.charge-outcome-unknown-503',
      title:
        "a charge whose outcome the card processor does not tell: 503 charge_outcome_unknown with no challenge; another challenge's credential meanwhile is 503 purchase_in_flight, and the same credential again a 503 of that charge",
      requirements: ids(E.charge_outcome_unknown, E.purchase_in_flight, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unknown-503');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('unknown'), offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
        // A charge sent whose outcome is unknown is still settling: another challenge's credential waits for it.
        const other = await payable(c, b);
        expectPaidAnswerOf(
          "another challenge's credential meanwhile",
          await b.post({ headers: cardPayment(other.echo, token('settled'), other.version) }),
          E.purchase_in_flight,
        );
        // Asked again, the processor knows the charge (still processing) or still cannot tell: either is that charge's 503.
        const again = await b.post({ headers });
        const code = errorCodeOf(again.body);
        expect([E.charge_outcome_unknown.code, E.charge_processing.code], `the same credential again: ${again.status} ${String(code)}`).toContain(code);
        expectPaidAnswer(again, code === E.charge_processing.code ? E.charge_processing : E.charge_outcome_unknown);
        if (target.purchases) expect(target.purchases.processor.charges.size, 'charges created').toBe(1);
      },
    });

    check({
      id: 'purchase.charge-outcome-unknown-completes',
      title: 'charge_outcome_unknown, then the same credential completes the same charge once',
      requirements: ids(E.charge_outcome_unknown, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unknown');
        const offer = await payable(c, b);
        const paying = token('unknown');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
        await processorFinishes(c, paying, 'settled');
        expectGranted(await b.post({ headers }));
        const p = records();
        if (p) {
          expect(p.processor.chargeCalls(), 'one charge at the processor, resumed by its key').toBeLessThanOrEqual(2);
          expect(p.processor.charges.size, 'charges created').toBe(1);
        }
      },
    });

    check({
      id: 'purchase.settlement-credited-once',
      title: 'a settlement the processor reports (twice, as webhooks retry) is credited once; the credential presented later is 409',
      requirements: ids(P.settledCreditedOnce, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'reported');
        const offer = await payable(c, b);
        const paying = token('processing');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_processing);
        await processorFinishes(c, paying, 'settled', true);
        await processorFinishes(c, paying, 'settled', true);
        await expectCreditedOnce(b);
        expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
      },
    });

    check({
      id: 'purchase.grant-failed',
      title: 'the card payment settled but the pack could not be credited: 503 grant_failed; the same credential credits once, charged once',
      requirements: ids(E.grant_failed, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'grant-failed');
        const offer = await payable(c, b);
        const headers = cardPayment(offer.echo, token('settled'), offer.version);
        const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
        p.store.failGrants = 1;
        expectPaidAnswer(await b.post({ headers }), E.grant_failed);
        expect(await p.store.balance(b.agentUrl), 'nothing credited yet').toBe('0');
        expectGranted(await b.post({ headers }));
        await expectCreditedOnce(b);
        expect(p.processor.charges.size, 'charges created').toBe(1);
      },
    });

    check({
      id: 'purchase.one-charge-settling-at-a-time',
      title:
        "while the buyer's card charge is still settling, a second challenge's credential gets 503 purchase_in_flight, nothing charged; once the processor reports the first settled, the same second credential is granted",
      requirements: ids(E.purchase_in_flight, P.settledCreditedOnce, P.resumeSameCredential),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'in-flight');
        const first = await payable(c, b);
        const paying = token('processing');
        expectPaidAnswer(await b.post({ headers: cardPayment(first.echo, paying, first.version) }), E.charge_processing);
        const second = await payable(c, b);
        const secondHeaders = cardPayment(second.echo, token('settled'), second.version);
        expectPaidAnswer(await b.post({ headers: secondHeaders }), E.purchase_in_flight);
        if (target.purchases) expect(target.purchases.processor.charges.size, 'charges created').toBe(1);
        await processorFinishes(c, paying, 'settled', true);
        expectGranted(await b.post({ headers: secondHeaders }));
      },
    });

    for (const race of [
      {
        id: 'purchase.same-credential-race-at-challenge',
        where: "while the challenge's guard looks the challenge up",
        hold: (p: ReferencePurchases) => holdNextCall(p.ports.store, 'challenge'),
      },
      {
        id: 'purchase.same-credential-race-at-record',
        where: "while the card's market is read, before the charge record is opened",
        hold: (p: ReferencePurchases) => holdNextCall(p.ports.processor, 'instrumentCountry'),
      },
    ]) {
      check({
        id: race.id,
        title: `the same credential presented twice at once, the second held ${race.where} until the first was granted: one purchase, credited once; the second is 409, the same success or a 503 of that credential`,
        requirements: ids(P.resumeSameCredential, P.settledCreditedOnce, E.purchase_already_granted),
        level: 'MUST',
        run: async (c) => {
          need(c, 'spend', 'payment-faults');
          const b = await buyer(c, race.id.slice('purchase.'.length));
          const offer = await payable(c, b);
          const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
          const headers = cardPayment(offer.echo, token('settled'), offer.version);
          const hold = race.hold(p);
          const second = b.post({ headers });
          await hold.held;
          const first = await b.post({ headers });
          hold.release();
          const late = await second;
          expectGranted(first);
          expectSamePurchase(late, first);
          await expectCreditedOnce(b);
          expect(p.processor.charges.size, 'charges created').toBe(1);
        },
      });
    }

    check({
      id: 'purchase.charge-call-fault',
      title:
        "the card processor's connection fails while the charge is sent: 503 charge_outcome_unknown; meanwhile another challenge's credential is 503 purchase_in_flight; the same credential later completes that charge once",
      requirements: ids(E.charge_outcome_unknown, E.purchase_in_flight, P.resumeSameCredential, P.settledCreditedOnce),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        const b = await buyer(c, 'charge-fault');
        const first = await payable(c, b);
        const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
        const paying = token('processing');
        const headers = cardPayment(first.echo, paying, first.version);
        // The charge reaches the processor, whose answer is lost on the way back.
        p.processor.enqueue('throw');
        expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
        const second = await payable(c, b);
        expectPaidAnswer(await b.post({ headers: cardPayment(second.echo, token('settled'), second.version) }), E.purchase_in_flight);
        await p.processorFinishes(paying, 'settled');
        expectGranted(await b.post({ headers }));
        await expectCreditedOnce(b);
        expect(p.processor.charges.size, 'charges created').toBe(1);
      },
    });

    for (const race of [
      {
        id: 'purchase.same-transfer-race-at-challenge',
        where: "while the challenge's guard looks the challenge up",
        hold: (p: ReferencePurchases) => holdNextCall(p.ports.store, 'challenge'),
      },
      {
        id: 'purchase.same-transfer-race-at-lock',
        where: "at the buyer's lock, before the transfer record is opened",
        hold: (p: ReferencePurchases) => holdNextCall(p.ports.lock, 'acquire'),
      },
    ]) {
      check({
        id: race.id,
        title: `the same stablecoin credential presented twice at once, the second held ${race.where} until the first was granted: one transfer broadcast, credited once; the second is 409, the same success or a 503 of that credential`,
        requirements: ids(P.resumeSameCredential, P.settledCreditedOnce, E.purchase_already_granted),
        level: 'MUST',
        run: async (c) => {
          need(c, 'spend', 'payment-faults');
          const b = await buyer(c, race.id.slice('purchase.'.length));
          const asked = await b.post({ headers: PREFER_TEMPO });
          const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
          const headers = await stablecoinPayment(asked);
          const hold = race.hold(p);
          const second = b.post({ headers });
          await hold.held;
          const first = await b.post({ headers });
          hold.release();
          const late = await second;
          expectGranted(first);
          expectSamePurchase(late, first);
          await expectCreditedOnce(b);
          expect(p.stablecoin.network.calls.filter((call) => call.kind === 'broadcast').length, 'transfers broadcast').toBe(1);
        },
      });
    }

    check({
      id: 'purchase.outcome-unknown-settlement-credited',
      title:
        'charge_outcome_unknown, then the processor reports the charge settled: it is credited once (not refunded as matching nothing), and the credential then answers 409',
      requirements: ids(P.settledCreditedOnce, E.charge_outcome_unknown, E.purchase_already_granted),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unknown-reported');
        const offer = await payable(c, b);
        const paying = token('unknown');
        const headers = cardPayment(offer.echo, paying, offer.version);
        expectPaidAnswer(await b.post({ headers }), E.charge_outcome_unknown);
        // The deployment never learned the charge's id; the report names it and the token it was paid with.
        await processorFinishes(c, paying, 'settled', true);
        await expectCreditedOnce(b);
        expectPaidAnswer(await b.post({ headers }), E.purchase_already_granted);
      },
    });
  });

  describe('refusals before anything is charged (deployment faults and switches)', () => {
    const faults: ReadonlyArray<{ record: PurchaseErrorRecord; describe: string; state: AgentState; arrange: (p: ReferencePurchases, b: Buyer) => void }> = [
      {
        record: E.mpp_disabled,
        describe: 'buying is not open',
        state: AGENT_STATES.mppDisabled,
        arrange: (p) => (p.config = { ...p.config, mppEnabled: false }),
      },
      {
        record: E.purchases_disabled,
        describe: 'purchases are closed in every market',
        state: AGENT_STATES.purchasesDisabled,
        arrange: (p) => (p.config = { ...p.config, purchasesOpen: false }),
      },
      {
        record: E.purchases_unavailable_region,
        describe: "the card's market is closed",
        state: AGENT_STATES.marketClosed,
        arrange: (p) => (p.config = { ...p.config, closedMarkets: [p.processor.defaultCountry ?? 'US'] }),
      },
      {
        record: E.ownerless_balance_cap,
        describe: 'an ownerless agent at the cap',
        state: AGENT_STATES.ownerlessAtCap,
        arrange: (p, b) => {
          p.buyers.ownerless.add(b.agentUrl);
          p.config = { ...p.config, ownerlessBalanceCapNano: '0' };
        },
      },
      {
        record: E.purchase_lock_unavailable,
        describe: 'the purchase lock is down',
        state: AGENT_STATES.lockUnavailable,
        arrange: (p) => (p.lock.unavailable = true),
      },
      {
        record: E.purchase_in_flight,
        describe: "another of the buyer's purchases is settling",
        state: AGENT_STATES.purchaseInFlight,
        arrange: (p, b) => p.lock.hold(b.agentUrl),
      },
      {
        record: E.terms_record_failed,
        describe: 'the assent cannot be recorded',
        state: AGENT_STATES.termsRecordFailed,
        arrange: (p) => (p.store.failAssent = true),
      },
    ];
    check({
      id: 'purchase.ownerless-claimed-by-owner-key',
      title:
        'an ownerless agent at the cap: a covered X-Service-Owner-Key the deployment does not hold is refused 403 ownerless_balance_cap; one it holds claims the agent and the purchase goes through',
      requirements: ids(E.ownerless_balance_cap),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'ownerless-claimed');
        const offer = await payable(c, b);
        const key = records() ? 'rk_conformance_operator' : (target.ownerKey ?? c.notRun('needs --owner-key: an operator key the deployment holds'));
        await arrange(target, c, { state: AGENT_STATES.ownerlessAtCap, agent: b.agentUrl }, (p) => {
          p.buyers.ownerless.add(b.agentUrl);
          p.config = { ...p.config, ownerlessBalanceCapNano: '0', ownerKeys: [key] };
        });
        const pay = (ownerKey: string) => ({ ...cardPayment(offer.echo, token('settled'), offer.version), [HEADERS.ownerKey]: ownerKey });
        expectPaidAnswer(await b.post({ headers: pay(`${key}-not-held`) }), E.ownerless_balance_cap);
        expectGranted(await b.post({ headers: pay(key) }));
      },
    });

    check({
      id: 'purchase.ownerless-cap-only-at-cap',
      title:
        'ownerless_balance_cap refuses only an agent without an owner at the cap: an agent with an owner whatever its balance, and an ownerless agent below the cap, buy the pack',
      requirements: ids(E.ownerless_balance_cap),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend', 'payment-faults');
        // Every balance is at a cap of 0: an agent with an owner is not limited by it.
        const owned = await buyer(c, 'owned-over-cap');
        const first = await payable(c, owned);
        const p = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
        p.config = { ...p.config, ownerlessBalanceCapNano: '0' };
        expectGranted(await owned.post({ headers: cardPayment(first.echo, token('settled'), first.version) }));
        // An ownerless agent, under a cap of two packs more than it holds.
        const ownerless = await buyer(c, 'ownerless-below-cap');
        const second = await payable(c, ownerless);
        const q = records() ?? c.notRun(CAPABILITY_REASONS['payment-faults']);
        q.buyers.ownerless.add(ownerless.agentUrl);
        const held = BigInt(await q.store.balance(ownerless.agentUrl));
        q.config = { ...q.config, ownerlessBalanceCapNano: String(held + 2n * BigInt(q.config.pack.creditNano)) };
        expectGranted(await ownerless.post({ headers: cardPayment(second.echo, token('settled'), second.version) }));
      },
    });

    for (const fault of faults) {
      check({
        id: `purchase.${fault.record.code.replaceAll('_', '-')}`,
        title: `${fault.describe}: ${fault.record.status} ${fault.record.code} with no WWW-Authenticate challenge, nothing charged`,
        requirements: ids(fault.record, P.noChallengeOnCodes),
        level: 'MUST',
        run: async (c) => {
          need(c, 'spend');
          const b = await buyer(c, fault.record.code);
          const offer = await payable(c, b);
          await arrange(target, c, { state: fault.state, agent: b.agentUrl }, (p) => fault.arrange(p, b));
          const answer = await b.post({ headers: cardPayment(offer.echo, token('settled'), offer.version) });
          expectPaidAnswer(answer, fault.record);
          expectNoChallengeField(answer);
          expectNothingCharged();
        },
      });
    }

    check({
      id: 'purchase.unknown-card-country',
      title: 'a card whose country cannot be established: 403 purchases_unavailable_region, nothing charged',
      requirements: ids(E.purchases_unavailable_region, P.noChallengeOnCodes),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unknown-country');
        const offer = await payable(c, b);
        const paying = token('settled');
        await arrange(target, c, { state: AGENT_STATES.cardCountryUnknown, agent: b.agentUrl }, (p) => p.processor.countries.set(paying, undefined));
        const answer = await b.post({ headers: cardPayment(offer.echo, paying, offer.version) });
        expectPaidAnswer(answer, E.purchases_unavailable_region);
        expect(errorCodeOf(answer.body), 'the code').toBe(E.purchases_unavailable_region.code);
        expectNothingCharged();
      },
    });

    check({
      id: 'purchase.payment-unreconciled',
      title: 'a token whose payment matched nothing sold and was refunded: 503 payment_unreconciled with the refund state',
      requirements: ids(E.payment_unreconciled),
      level: 'MUST',
      run: async (c) => {
        need(c, 'spend');
        const b = await buyer(c, 'unreconciled');
        const offer = await payable(c, b);
        const stray = token('settled');
        await processorFinishes(c, stray, 'settled', true);
        const answer = await b.post({ headers: cardPayment(offer.echo, stray, offer.version) });
        expectPaidAnswer(answer, E.payment_unreconciled);
        // Live, the refund's state is the deployment's to tell: one of the two the spec names.
        const told = refundStateOf(answer.body);
        if (records()) expect(told, 'the refund state').toBe(records()!.processor.refundState);
        else expect(Object.values(REFUND_STATES), 'the refund state: issued or pending').toContain(told);
      },
    });
  });
});
