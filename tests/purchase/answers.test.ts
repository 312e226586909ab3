import { describe, expect, it } from 'vitest';
import {
  createChallenge,
  paymentChallenges,
  paymentProblemAnswer,
  purchaseAnswer,
  singlePaymentChallenge,
  termsHeaders,
  type PaidSurface,
} from '../../src/purchase/index.js';
import { renderAnswer } from '../../src/reference/render.js';
import { AUTH_ERROR_BODY_ERROR } from '../../src/spec/auth-errors.js';
import { HEADERS } from '../../src/spec/headers.js';
import { MEDIA_TYPES } from '../../src/spec/media-types.js';
import {
  PAYMENT_CREDENTIAL_HEADER,
  PAYMENT_METHODS,
  PAYMENT_PROBLEMS,
  PURCHASE_ROW_BODY,
  REFUND_STATES,
  TERMS_ACCEPTED_HEADER,
} from '../../src/spec/payments.js';
import { DEFAULT_PROBLEM_BASES, problemTypeUrl } from '../../src/spec/problem-types.js';
import { PURCHASE_ERROR_LIST, PURCHASE_ERRORS, type PurchaseErrorCode } from '../../src/spec/purchase-errors.js';
import type { PurchaseErrorRecord } from '../../src/spec/types.js';

const surface: PaidSurface = { problemBases: DEFAULT_PROBLEM_BASES, terms: { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' } };
const challenge = createChallenge({
  realm: 'platform.example',
  method: PAYMENT_METHODS.stripe,
  request: { amount: '500', currency: 'usd' },
  createdAt: 1_789_732_800,
});
const purchase = { granted: true, packId: 'mpp_5' };

/** Everything a row could need; each builder takes what its row says. Retry-After is offered to every row, to show the catalogue decides. */
function answerFor(record: PurchaseErrorRecord) {
  const needs = PURCHASE_ROW_BODY[record.code as PurchaseErrorCode] ?? [];
  return purchaseAnswer(record, surface, {
    ...(record.challenge ? { challenge } : {}),
    retryAfterSeconds: 5,
    ...(needs.includes('purchase') ? { purchase } : {}),
    ...(needs.includes('refund') ? { refund: REFUND_STATES.pending } : {}),
  });
}

const TERMS_LINK = '<https://platform.example/doc/terms-of-service>; rel="terms-of-service"';

describe.each(PURCHASE_ERROR_LIST.map((r) => [r.code, r] as const))('7.4 %s', (_code, record) => {
  const answer = answerFor(record);
  const body = answer.body as Record<string, unknown>;

  it('answers with the status and code of its record', () => {
    expect(answer.status).toBe(record.status);
    expect(answer.code).toBe(record.code);
    expect(Object.keys(answer.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(answer.headers[HEADERS.cacheControl]).toBe('no-store');
  });

  it('carries a Payment challenge exactly when the record says, and then exactly one', () => {
    const found = paymentChallenges(answer.headers[HEADERS.wwwAuthenticate] ?? []);
    expect(found.malformed).toEqual([]);
    expect(found.challenges.length).toBe(record.challenge ? 1 : 0);
    if (record.challenge) expect(singlePaymentChallenge(answer.headers[HEADERS.wwwAuthenticate]!)).toMatchObject({ ok: true, challenge, canonical: true });
  });

  it('carries the retry object exactly as the catalogue says', () => {
    const expected = record.retry
      ? { sameCredential: record.retry.sameCredential, ...(record.retry.sameCredential ? { credentialHeader: PAYMENT_CREDENTIAL_HEADER } : {}) }
      : undefined;
    expect(body.retry).toEqual(expected);
    if (record.status === 503) expect(body.retry).toBeDefined();
  });

  it('carries Retry-After exactly when the catalogue says', () => {
    expect(answer.headers[HEADERS.retryAfter]).toBe(record.retryAfter ? '5' : undefined);
  });

  it('is problem+json exactly for the problem rows', () => {
    expect(answer.headers[HEADERS.contentType]).toBe(record.kind === 'problem' ? MEDIA_TYPES.problemJson : MEDIA_TYPES.json);
    if (record.kind === 'problem') {
      expect(body.type).toBe(problemTypeUrl(surface.problemBases, record.problemBase!, record.code));
      expect(body.status).toBe(record.status);
      expect(typeof body.title).toBe('string');
      expect(body.detail).toBe(record.condition);
    } else {
      expect(body.error_code).toBe(record.code);
      expect(body.error).toBe(record.status === 401 ? AUTH_ERROR_BODY_ERROR : record.code);
      expect(body.error_description).toBe(record.condition);
    }
  });

  it('names the terms on a 402 and only there', () => {
    const is402 = record.status === 402;
    expect(answer.headers[HEADERS.link]).toBe(is402 ? TERMS_LINK : undefined);
    expect(answer.headers[HEADERS.termsVersion]).toBe(is402 ? surface.terms.version : undefined);
    if (is402) {
      expect(body.challengeId).toBe(challenge.id);
      expect(body.terms).toEqual({ url: surface.terms.url, version: surface.terms.version, header: TERMS_ACCEPTED_HEADER });
    }
  });

  it('renders as a Response with the same status, headers and body', async () => {
    const response = renderAnswer(answer);
    expect(response.status).toBe(record.status);
    expect(response.headers.get(HEADERS.contentType)).toBe(answer.headers[HEADERS.contentType]);
    expect(await response.json()).toEqual(answer.body);
  });
});

describe('rows by status', () => {
  it('the 401 keeps the verifier body and names Bearer, not Payment', () => {
    const answer = answerFor(PURCHASE_ERRORS.terms_acceptance_unauthenticated);
    expect(answer.body).toEqual({
      error: AUTH_ERROR_BODY_ERROR,
      error_code: 'terms_acceptance_unauthenticated',
      error_description: PURCHASE_ERRORS.terms_acceptance_unauthenticated.condition,
    });
    expect(answer.headers[HEADERS.wwwAuthenticate]).toBe('Bearer realm="service"');
  });

  it('the 400 method-unsupported is a problem with no challenge and no terms', () => {
    const answer = answerFor(PURCHASE_ERRORS['method-unsupported']);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      type: 'https://paymentauth.org/problems/method-unsupported',
      title: 'Method unsupported',
      status: 400,
      detail: PURCHASE_ERRORS['method-unsupported'].condition,
    });
    expect(answer.headers[HEADERS.wwwAuthenticate]).toBeUndefined();
  });

  it('every 403 carries its stable code and no challenge', () => {
    for (const record of PURCHASE_ERROR_LIST.filter((r) => r.status === 403)) {
      const answer = answerFor(record);
      expect(answer.body).toMatchObject({ error: record.code, error_code: record.code });
      expect(answer.headers[HEADERS.wwwAuthenticate]).toBeUndefined();
    }
  });

  it('a 503 to re-present names the credential header, as the SDK reads it', () => {
    const answer = answerFor(PURCHASE_ERRORS.charge_outcome_unknown);
    expect(answer.body).toMatchObject({ error: 'charge_outcome_unknown', retry: { sameCredential: true, credentialHeader: 'Payment-Authorization' } });
  });

  it('funding_failed carries the purchase block, payment_unreconciled the refund state, and each refuses to build without it', () => {
    expect(answerFor(PURCHASE_ERRORS.funding_failed).body).toMatchObject({ purchase, retry: { sameCredential: false } });
    expect(answerFor(PURCHASE_ERRORS.payment_unreconciled).body).toMatchObject({ refund: 'pending' });
    expect(() => purchaseAnswer(PURCHASE_ERRORS.funding_failed, surface)).toThrow(/purchase/);
    expect(() => purchaseAnswer(PURCHASE_ERRORS.payment_unreconciled, surface)).toThrow(/refund/);
  });

  it('a 409 may carry the receipt of the settled payment', () => {
    const receipt = { status: 'success', method: 'stripe', reference: 'pi_1', timestamp: '2026-09-18T12:01:00.000Z' };
    expect(purchaseAnswer(PURCHASE_ERRORS.call_refunded, surface, { receipt }).body).toMatchObject({ receipt, retry: { sameCredential: false } });
  });

  it('refuses to build a row without what it carries, or with a challenge it does not carry', () => {
    expect(() => purchaseAnswer(PURCHASE_ERRORS['terms-version-stale'], surface)).toThrow(/challenge/);
    expect(() => purchaseAnswer(PURCHASE_ERRORS['method-unsupported'], surface, { challenge })).toThrow(/no challenge/);
    expect(() => purchaseAnswer(PURCHASE_ERRORS.mpp_disabled, surface, { challenge })).toThrow(/no challenge/);
    expect(() => purchaseAnswer(PURCHASE_ERRORS.wallet_daily_cap, surface)).toThrow(/Retry-After/);
    expect(() => purchaseAnswer(PURCHASE_ERRORS.wallet_daily_cap, surface, { retryAfterSeconds: 1.5 })).toThrow(/Retry-After/);
  });

  it('takes a description in place of the catalogue sentence', () => {
    expect(purchaseAnswer(PURCHASE_ERRORS.foreign_token, surface, { description: 'Get a new token.' }).body).toMatchObject({
      error_description: 'Get a new token.',
    });
  });
});

describe("the Payment scheme's own 402s", () => {
  it.each(Object.values(PAYMENT_PROBLEMS).map((p) => [p.slug, p] as const))('%s carries a fresh challenge and the terms', (_slug, problem) => {
    const answer = paymentProblemAnswer(problem, surface, challenge);
    expect(answer.status).toBe(402);
    expect(answer.headers[HEADERS.contentType]).toBe(MEDIA_TYPES.problemJson);
    expect(answer.body).toMatchObject({
      type: `https://paymentauth.org/problems/${problem.slug}`,
      status: 402,
      title: problem.title,
      challengeId: challenge.id,
    });
    expect(singlePaymentChallenge(answer.headers[HEADERS.wwwAuthenticate]!)).toMatchObject({ ok: true, challenge });
    expect(answer.headers[HEADERS.link]).toBe(TERMS_LINK);
  });
});

describe('termsHeaders', () => {
  it('gives the Link and the terms version, for every answer of a paid surface once it funded the call', () => {
    expect(termsHeaders(surface.terms.url, '2026-07-31')).toEqual({ link: TERMS_LINK, 'service-terms-version': '2026-07-31' });
    expect(() => termsHeaders('https://x.example/a b', 'v')).toThrow(TypeError);
  });
});
