import { expect } from 'vitest';
import { errorCodeOf } from '../../src/harness/judge-purchase.js';
import { agingWaitSeconds } from '../../src/harness/live-waits.js';
import type { Capability, Target } from '../../src/harness/target.js';
import { decodeBase64urlJson, parseAuthenticate, type ChallengeEcho } from '../../src/purchase/index.js';
import { HEADERS } from '../../src/spec/headers.js';
import { LIMITS } from '../../src/spec/limits.js';
import { PURCHASE_BODY_MEMBERS, REFUND_STATES, type PaymentProblemRecord } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { READINGS } from '../../src/spec/readings.js';
import type { PurchaseErrorRecord } from '../../src/spec/types.js';
import { AUTH_SCHEMES } from '../../src/spec/wire.js';
import { TOKEN_STATES } from '../../src/contract/test-control.js';
import { arrange, Buyer, cardPayment, expectPaidAnswer, expectSucceeded, freshTestToken, needCapabilities, payOrNotRun, type PaidExchange } from './buyer.js';
import type { CheckContext } from './check.js';
import { checkTimeout } from './context.js';
import { PREFER_TEMPO, signTransfer, stablecoinCredential, tempoOffer } from './stablecoin.js';

/**
 * What the 7.4 files about the pack at POST /api/mpp/credits share (7.4-purchases, 7.4-purchase-moves,
 * 7.4-purchase-refusals): the buyer, the challenge and its payment, and how a grant, a refusal and a race are judged.
 */

const E = PURCHASE_ERRORS;
export const LIFETIME_S = LIMITS.paymentChallengeLifetime.value;
export const ids = (...records: ReadonlyArray<{ readonly id: string }>) => records.map((r) => r.id);
export const token = freshTestToken;

/** A host that is not the platform's own (an alias or custom domain): a signature made for it is not made for the platform (5.2). */
export const ALIAS_HOST = 'alias-of-the-platform.example';
/** A method id no deployment offers (7.4 method-unsupported: the resource does not accept it). */
export const UNOFFERED_METHOD = 'unoffered';

/** Why a check that ages a challenge past its lifetime is not run live without --allow-waits. */
const AGING_REASON = `needs clock-control: the challenge must age past ${LIFETIME_S} s; in-process the target's clock moves, and against a live deployment the run waits for it in real time (over ${LIFETIME_S / 60} minutes) with --allow-waits`;

export interface Offer {
  readonly echo: ChallengeEcho;
  readonly version: string;
  readonly amount: number;
}

/** The one challenge of a 402, with the terms version it names. */
export function challengeOf(exchange: PaidExchange): Offer {
  const [first] = exchange.challenges;
  if (!first) return expect.fail(`expected a Payment challenge, got ${exchange.status} ${exchange.refusal ?? ''}`);
  const version = exchange.termsVersion ?? '';
  const amount = Number((first.challenge.request as { amount?: unknown }).amount ?? Number.NaN);
  return { echo: first.echo, version, amount };
}

/** A paid purchase: the route's success (2xx; 4.7 shows no body), no challenge, and a Payment-Receipt. */
export function expectGranted(exchange: PaidExchange): void {
  expectSucceeded(exchange, 'a paid purchase');
  expect(exchange.response.headers[HEADERS.paymentReceipt], 'a Payment-Receipt').toBeDefined();
}

/** 7.4: "403 and 503 carry no challenge": no WWW-Authenticate field at all, of the Payment scheme or any other. */
export function expectNoChallengeField(exchange: PaidExchange): void {
  const field = exchange.response.headers[HEADERS.wwwAuthenticate];
  expect(field, `a ${exchange.status} carries no challenge (7.4), yet ${HEADERS.wwwAuthenticate} is ${JSON.stringify(field)}`).toBeUndefined();
}

/**
 * The 401 terms_acceptance_unauthenticated: its row, the error_description every 401 on a paid surface carries, and
 * a WWW-Authenticate with at least one challenge, none of the Payment scheme (READING-UNAUTHENTICATED-PURCHASE-401).
 */
export function expectAcceptanceUnauthenticated(exchange: PaidExchange): void {
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

/** The payment a success names: the reference of its Payment-Receipt (the Payment scheme draft: base64url JSON). */
export function receiptReference(exchange: PaidExchange): string | undefined {
  const decoded = decodeBase64urlJson(exchange.response.headers[HEADERS.paymentReceipt] ?? '');
  const reference = decoded.ok ? (decoded.value as { reference?: unknown } | null)?.reference : undefined;
  return typeof reference === 'string' && reference !== '' ? reference : undefined;
}

/** 503s that ask for the same credential again. */
const SAME_CREDENTIAL_503S: readonly PurchaseErrorRecord[] = Object.values(E).filter((r) => r.status === 503 && r.retry?.sameCredential === true);

/** The same-credential 503 `exchange` is, if it is one. */
export function sameCredential503(exchange: PaidExchange): PurchaseErrorRecord | undefined {
  const code = errorCodeOf(exchange.body);
  return exchange.status === 503 ? SAME_CREDENTIAL_503S.find((r) => r.code === code) : undefined;
}

/**
 * The refund state a payment_unreconciled body says (7.4: "body says whether the refund is issued or pending"; the
 * member is not named, READING-PURCHASE-BODY-MEMBERS): the reference's `refund`, else any member holding one.
 */
export function refundStateOf(body: Record<string, unknown> | undefined): unknown {
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

/**
 * The paid retry of a stablecoin challenge (7.4): a signed Tempo transaction making the one transferWithMemo it
 * quotes, valid until its expiry, with the assent and the methods hint.
 */
export async function stablecoinPayment(exchange: PaidExchange): Promise<Record<string, string>> {
  const offer = tempoOffer(exchange, 'the stablecoin challenge');
  return { ...PREFER_TEMPO, ...stablecoinCredential(offer, await signTransfer(offer)) };
}

/** The helpers of one pack suite file, over its target. */
export function packSuite(target: Target, file: string) {
  let serial = 0;

  /** Reports the check not-run unless the target has these capabilities. */
  const need = (c: CheckContext, ...capabilities: Capability[]) => needCapabilities(target, c, ...capabilities);

  const buyer = async (c: CheckContext, name: string): Promise<Buyer> => new Buyer(target, `${file}-${name}-${serial++}`, c.record).register();

  /** Leave to pay what a challenge quotes (a live run takes it from its spending allowance). */
  const mayPay = async (c: CheckContext, offered: { amount: number }): Promise<void> => {
    await payOrNotRun(target, c, offered.amount);
  };

  /** A challenge from the target, and leave to pay it. */
  const payable = async (c: CheckContext, b: Buyer): Promise<Offer> => {
    const offered = challengeOf(await b.post());
    await mayPay(c, offered);
    return offered;
  };

  /**
   * The card processor, on its own, takes the charge a token paid to `outcome`; with `report` it also tells the
   * deployment (its settlement webhook). In-process the embedded reference's processor; live the deployment's test control.
   */
  const processorFinishes = async (c: CheckContext, paying: string, outcome: 'settled' | 'declined' | 'cancelled-unsettled', report = false): Promise<void> => {
    const request = report
      ? ({ state: TOKEN_STATES.settlementReported, token: paying } as const)
      : ({ state: TOKEN_STATES.chargeFinishes, token: paying, outcome } as const);
    await arrange(target, c, request);
  };

  /** A refusal with `problem` that carries a fresh challenge (section 3), which the buyer then pays and is granted. */
  const expectFreshChallengePaid = async (c: CheckContext, b: Buyer, refused: PaidExchange, problem: PaymentProblemRecord): Promise<void> => {
    expectPaidAnswer(refused, problem);
    const fresh = challengeOf(refused);
    await mayPay(c, fresh);
    expectGranted(await b.post({ headers: cardPayment(fresh.echo, token('settled'), fresh.version) }));
  };

  const needAging = (c: CheckContext): void => {
    if (!target.capabilities.has('clock-control')) c.notRun(AGING_REASON);
  };

  /** A check that ages a challenge waits that long live (--allow-waits): its time limit grows by the wait. */
  const agingTimeout = (checkId: string): { timeout?: number } =>
    target.kind === 'live' && target.capabilities.has('clock-control') ? { timeout: agingWaitSeconds(checkId) * 1000 + checkTimeout(60_000) } : {};

  return {
    need,
    buyer,
    mayPay,
    payable,
    processorFinishes,
    expectFreshChallengePaid,
    needAging,
    agingTimeout,
  };
}
