import { describe, expect, it } from 'vitest';
import {
  challengeExpiryProblems,
  errorCodeOf,
  hasNoStore,
  ProblemTypeAddresses,
  purchaseAnswerProblems,
  termsHeaderProblems,
  type PaidExchangeFacts,
} from '../../src/harness/judge-purchase.js';
import type { TargetResponse } from '../../src/harness/target.js';
import { createChallenge, instantOf, paymentProblemAnswer, purchaseAnswer, type PaidSurface, type PurchaseAnswer } from '../../src/purchase/index.js';
import { renderAnswer } from '../../src/reference/render.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PAYMENT_METHODS, PAYMENT_PROBLEMS } from '../../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES } from '../../src/spec/problem-types.js';
import { PURCHASE_ERROR_LIST, PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { PURCHASE_VARIANTS } from '../../src/variants/purchase.js';

const T0 = 1_800_000_000;
const TERMS = 'https://platform.example/doc/terms-of-service';
const BASES = { ...DEFAULT_PROBLEM_BASES, problems: 'https://platform.example/problems' };
const surface: PaidSurface = { problemBases: BASES, terms: { url: TERMS, version: '2026-07-31' } };
const challenge = createChallenge({ realm: 'platform.example', method: PAYMENT_METHODS.stripe, request: { amount: '500', currency: 'usd' }, createdAt: T0 });

const facts = (over: Partial<PaidExchangeFacts> = {}): PaidExchangeFacts => ({
  clock: { now: T0, skewS: 0 },
  problemTypes: new ProblemTypeAddresses(BASES),
  termsUrl: TERMS,
  requestUrl: 'https://platform.example/api/mpp/credits',
  ...over,
});

function response(answer: PurchaseAnswer, headers: Record<string, string> = {}, body?: unknown): TargetResponse {
  return {
    status: answer.status,
    headers: { ...answer.headers, ...headers },
    body: new TextEncoder().encode(JSON.stringify(body ?? answer.body)),
  };
}

const required = () => paymentProblemAnswer(PAYMENT_PROBLEMS.paymentRequired, surface, challenge);

describe('the terms Link, read under RFC 8288', () => {
  const withLink = (link: string | undefined): TargetResponse => ({
    status: 402,
    headers: { [HEADERS.termsVersion]: '1', ...(link === undefined ? {} : { [HEADERS.link]: link }) },
    body: new Uint8Array(0),
  });

  it.each([
    ['the spec form', `<${TERMS}>; rel=terms-of-service`],
    ['a quoted rel', `<${TERMS}>; rel="terms-of-service"`],
    ['params in another order', `<${TERMS}>; type="text/html"; rel=terms-of-service`],
    ['a rel in upper case, its name too', `<${TERMS}>; REL="Terms-Of-Service"`],
    ['several relation types in one rel', `<${TERMS}>; rel="license terms-of-service"`],
    ['another link first', `<https://platform.example/doc/privacy>; rel=privacy-policy, <${TERMS}>; title="Terms"; rel=terms-of-service`],
    ['a relative reference', '</doc/terms-of-service>; rel=terms-of-service'],
  ])('accepts %s', (_name, link) => {
    expect(termsHeaderProblems(withLink(link), facts())).toEqual([]);
  });

  it.each([
    ['no Link', undefined],
    ['no terms relation', `<${TERMS}>; rel=help`],
    ['the terms at another address', '<https://platform.example/doc/other>; rel=terms-of-service'],
  ])('refuses %s', (_name, link) => {
    expect(termsHeaderProblems(withLink(link), facts())).toHaveLength(1);
  });

  it('takes any address for the terms when the run does not know {terms_url}', () => {
    expect(termsHeaderProblems(withLink('<https://elsewhere.example/t>; rel=terms-of-service'), { requestUrl: 'https://x.example/' })).toEqual([]);
  });
});

describe('Cache-Control, read as a list of directives (RFC 9111 5.2)', () => {
  it.each(['no-store', 'private, no-store', 'No-Store', 'no-cache,no-store, max-age=0'])('has no-store in %j', (field) => expect(hasNoStore(field)).toBe(true));
  it.each([undefined, 'max-age=60', 'no-cache', 'private'])('has no no-store in %j', (field) => expect(hasNoStore(field)).toBe(false));
});

describe("a challenge's expiry", () => {
  const at = (seconds: number) => ({ expires: instantOf(seconds) });
  const plain: TargetResponse = { status: 402, headers: {}, body: new Uint8Array(0) };
  const dated = (seconds: number): TargetResponse => ({ ...plain, headers: { date: new Date(seconds * 1000).toUTCString() } });

  it("is 300 s after the answer's Date, within 5 s", () => {
    expect(challengeExpiryProblems(at(T0 + 300), dated(T0), { now: 0, skewS: 0 })).toEqual([]);
    expect(challengeExpiryProblems(at(T0 + 304), dated(T0), { now: 0, skewS: 0 })).toEqual([]);
    expect(challengeExpiryProblems(at(T0 + 310), dated(T0), { now: 0, skewS: 0 })).toHaveLength(1);
  });

  it('is judged by the run clock when the answer has no Date, with the skew of a wall clock', () => {
    expect(challengeExpiryProblems(at(T0 + 300), plain, { now: T0, skewS: 0 })).toEqual([]);
    expect(challengeExpiryProblems(at(T0 + 340), plain, { now: T0, skewS: 0 })).toHaveLength(1);
    expect(challengeExpiryProblems(at(T0 + 340), plain, { now: T0, skewS: 60 })).toEqual([]);
  });

  it('refuses a challenge that expires 10 s after it was issued', () => {
    expect(challengeExpiryProblems(at(T0 + 10), plain, { now: T0, skewS: 60 })[0]).toContain('10 s after the answer');
  });
});

describe('problem types are judged by their whole address', () => {
  it('the known address of each kind', () => {
    const addresses = new ProblemTypeAddresses(BASES);
    expect(addresses.problems(`${BASES.problems}/terms-version-stale`, 'problems', 'terms-version-stale')).toEqual([]);
    expect(addresses.problems(`${BASES['payment-problems']}/terms-version-stale`, 'problems', 'terms-version-stale')).toHaveLength(1);
    expect(addresses.problems('/problems/terms-version-stale', 'problems', 'terms-version-stale', 'https://platform.example/api/mpp/credits')).toEqual([]);
    expect(addresses.problems('terms-version-stale', 'problems', 'terms-version-stale')).toHaveLength(1);
  });

  it('an unknown address is learned from the first type of its kind, and held to', () => {
    const addresses = new ProblemTypeAddresses();
    expect(addresses.problems('https://live.example/p/terms-acceptance-required', 'problems', 'terms-acceptance-required')).toEqual([]);
    expect(addresses.problems('https://live.example/p/terms-version-stale', 'problems', 'terms-version-stale')).toEqual([]);
    expect(addresses.problems('https://other.example/p/terms-version-stale', 'problems', 'terms-version-stale')).toHaveLength(1);
    expect(addresses.problems('https://pay.example/problems/payment-required', 'payment-problems', 'payment-required')).toEqual([]);
  });
});

describe('a 7.4 answer, as every reading allows it', () => {
  it('passes the reference answer', () => {
    expect(purchaseAnswerProblems(response(required()), PAYMENT_PROBLEMS.paymentRequired, facts())).toEqual([]);
  });

  it('takes members the spec does not name in the retry object and the body', () => {
    const answer = purchaseAnswer(PURCHASE_ERRORS.charge_processing, surface, { retryAfterSeconds: 5 });
    const body = { ...answer.body, requestId: 'r', retry: { ...(answer.body.retry as object), backoff: 'exponential' } };
    expect(purchaseAnswerProblems(response(answer, {}, body), PURCHASE_ERRORS.charge_processing, facts())).toEqual([]);
  });

  it('takes the code in error_code, error or error.code', () => {
    expect(errorCodeOf({ error_code: 'a' })).toBe('a');
    expect(errorCodeOf({ error: 'b' })).toBe('b');
    expect(errorCodeOf({ error: { code: 'c', message: 'm' } })).toBe('c');
    expect(errorCodeOf({ code: 'd' })).toBeUndefined();
  });

  it('still refuses a retry object without the same credential, and a 402 whose challenge expires early', () => {
    const answer = purchaseAnswer(PURCHASE_ERRORS.charge_processing, surface, { retryAfterSeconds: 5 });
    const dropped = { ...answer.body, retry: { sameCredential: true } };
    expect(purchaseAnswerProblems(response(answer, {}, dropped), PURCHASE_ERRORS.charge_processing, facts())).toHaveLength(1);
    const early = paymentProblemAnswer(
      PAYMENT_PROBLEMS.paymentRequired,
      surface,
      createChallenge({
        realm: 'platform.example',
        method: PAYMENT_METHODS.stripe,
        request: { amount: '500', currency: 'usd' },
        createdAt: T0,
        lifetimeSeconds: 10,
      }),
    );
    expect(purchaseAnswerProblems(response(early), PAYMENT_PROBLEMS.paymentRequired, facts())).toHaveLength(1);
  });
});

describe('every purchase variant rewrites the reference answers into ones the judge passes', () => {
  const rows = [
    ...PURCHASE_ERROR_LIST.map((record) => ({
      record,
      answer: purchaseAnswer(record, surface, {
        ...(record.challenge ? { challenge } : {}),
        retryAfterSeconds: 5,
        purchase: { granted: true },
        refund: 'issued',
      }),
    })),
    { record: PAYMENT_PROBLEMS.paymentExpired, answer: paymentProblemAnswer(PAYMENT_PROBLEMS.paymentExpired, surface, challenge) },
  ];
  const answerFaults = PURCHASE_VARIANTS.filter((v) => v.platform?.answer && !v.platform.purchases);

  it.each(answerFaults.map((v) => [v.id, v] as const))('%s', async (_id, variant) => {
    for (const { record, answer } of rows) {
      const rendered = renderAnswer(answer);
      const request = { method: 'POST', url: 'https://platform.example/api/mpp/credits', headers: new Headers(), body: null };
      const rewritten = await variant.platform!.answer!(request, rendered);
      const judged: TargetResponse = {
        status: rewritten.status,
        headers: Object.fromEntries(rewritten.headers),
        body: new Uint8Array(await rewritten.arrayBuffer()),
      };
      expect(purchaseAnswerProblems(judged, record, facts()), `${'code' in record ? record.code : record.slug}`).toEqual([]);
    }
  });
});
