import { describe, expect, it } from 'vitest';
import {
  checkBalanceRequired,
  checkFundedFrame,
  checkPaymentRequiredFrame,
  checkPaymentSubmitFrame,
  checkPointerResponse,
  checkPurchasePointerBody,
  describeProblems,
  parseFrameText,
  purchasePointerAnswer,
  purchasePointerBody,
  type InbandCheck,
} from '../../../src/purchase/inband.js';
import { createChallenge, serializeChallenge } from '../../../src/purchase/index.js';
import { HEADERS } from '../../../src/spec/headers.js';
import {
  DELEGATE_STATUSES,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  POINTER_BODY_MEMBERS,
  POINTER_BODY_TEXT,
  REQUIREMENTS_CURRENCY,
} from '../../../src/spec/inband.js';
import { MEDIA_TYPES } from '../../../src/spec/media-types.js';
import { PAYMENT_CACHE_CONTROL, PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS } from '../../../src/spec/payments.js';

const PURCHASE_URL = 'https://platform.example/api/mpp/credits';
const TERMS = { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' };
const CHALLENGE = serializeChallenge(
  createChallenge({ realm: 'platform.example', method: PAYMENT_METHODS.stripe, request: { amount: '500', currency: 'usd' }, createdAt: 1_789_732_800 }),
);

const pointers = (check: InbandCheck): string[] => (check.ok ? [] : check.problems.map((p) => p.pointer));

const required = (schemes: unknown[]): unknown => ({
  type: INBAND_FRAME_TYPES.paymentRequired,
  event_id: 'e',
  requirements: { amount: '1', currency: 'USD', schemes },
});
const token = { scheme: INBAND_SCHEMES.token };
const mpp = { scheme: INBAND_SCHEMES.mpp, challenge: CHALLENGE, purchase_url: PURCHASE_URL, terms: TERMS };

describe('checkPaymentRequiredFrame names what is wrong, by JSON pointer', () => {
  it('schemes[0] must be token', () => {
    const check = checkPaymentRequiredFrame(required([mpp, token]));
    expect(pointers(check)).toEqual(['/requirements/schemes/0/scheme']);
    expect(describeProblems(check)[0]).toMatch(/must be "token"/);
  });

  it('the mpp entry must carry a challenge where one is due', () => {
    expect(pointers(checkPaymentRequiredFrame(required([token, { scheme: INBAND_SCHEMES.mpp, purchase_url: PURCHASE_URL }]), { mpp: 'challenge' }))).toEqual([
      '/requirements/schemes/1/challenge',
    ]);
    expect(pointers(checkPaymentRequiredFrame(required([token]), { mpp: 'challenge' }))).toEqual(['/requirements/schemes']);
  });

  it('the challenge must be one Payment challenge naming Payment-Authorization', () => {
    expect(pointers(checkPaymentRequiredFrame(required([token, { ...mpp, challenge: 'Bearer realm="x"' }])))).toEqual(['/requirements/schemes/1/challenge']);
    const noHeader = CHALLENGE.replace(`, header="${PAYMENT_CREDENTIAL_HEADER}"`, '');
    const check = checkPaymentRequiredFrame(required([token, { ...mpp, challenge: noHeader }]));
    expect(describeProblems(check)).toEqual([`/requirements/schemes/1/challenge: the challenge must name header="${PAYMENT_CREDENTIAL_HEADER}"`]);
  });

  it('purchase_url must be absolute and terms must have url and version', () => {
    const check = checkPaymentRequiredFrame(required([token, { ...mpp, purchase_url: '/api/mpp/credits', terms: { url: TERMS.url } }]));
    expect(pointers(check)).toEqual(['/requirements/schemes/1/purchase_url', '/requirements/schemes/1/terms/version']);
  });

  it('a pointer holds purchase_url only', () => {
    const check = checkPaymentRequiredFrame(required([token, { scheme: INBAND_SCHEMES.mpp, purchase_url: PURCHASE_URL, terms: TERMS }]), { mpp: 'pointer' });
    expect(pointers(check)).toEqual(['/requirements/schemes/1/terms']);
    expect(pointers(checkPaymentRequiredFrame(required([token, mpp]), { mpp: 'pointer' }))).toEqual(['/requirements/schemes/1/challenge']);
  });

  it('no mpp entry where the deployment sells no usage', () => {
    expect(pointers(checkPaymentRequiredFrame(required([token, mpp]), { mpp: 'absent' }))).toEqual(['/requirements/schemes/1']);
  });

  it('reads the type and the shape first', () => {
    expect(pointers(checkPaymentRequiredFrame({ type: INBAND_FRAME_TYPES.paymentAccepted }))).toEqual(['/type']);
    expect(pointers(checkPaymentRequiredFrame([]))).toEqual(['']);
    expect(pointers(checkPaymentRequiredFrame({ type: INBAND_FRAME_TYPES.paymentRequired, requirements: { schemes: [] } }))).toEqual(['/requirements/schemes']);
  });
});

describe('the other frames', () => {
  it('payment.submit must say scheme balance (the deployment reading, submit.ts)', () => {
    expect(pointers(checkPaymentSubmitFrame({ type: INBAND_FRAME_TYPES.paymentSubmit, payment: { scheme: INBAND_SCHEMES.token, amount: '1' } }))).toEqual([
      '/payment/scheme',
    ]);
    expect(pointers(checkPaymentSubmitFrame({ type: INBAND_FRAME_TYPES.paymentSubmit }))).toEqual(['/payment/scheme']);
  });

  it('a funded frame must carry terms {url, version}', () => {
    expect(pointers(checkFundedFrame({ type: INBAND_FRAME_TYPES.responseDone }))).toEqual(['/terms']);
    expect(pointers(checkFundedFrame({ type: INBAND_FRAME_TYPES.responseDone, terms: { url: 'not a url', version: '' } }))).toEqual([
      '/terms/url',
      '/terms/version',
    ]);
    expect(pointers(checkFundedFrame({ type: INBAND_FRAME_TYPES.paymentRequired, terms: TERMS }))).toEqual(['/type']);
    expect(pointers(checkFundedFrame({ type: INBAND_FRAME_TYPES.responseError, terms: TERMS }, { type: INBAND_FRAME_TYPES.responseDone }))).toEqual(['/type']);
  });

  it('balance_required is the delegate status', () => {
    expect(pointers(checkBalanceRequired({ status: 'ok' }))).toEqual(['/status']);
    expect(checkBalanceRequired({ status: DELEGATE_STATUSES.balanceRequired })).toEqual({ ok: true });
  });

  it('a message that is not a JSON object is refused with a reason', () => {
    expect(parseFrameText('{')).toMatchObject({ ok: false, problems: [{ pointer: '', message: expect.stringMatching(/JSON text of an object/) }] });
    expect(parseFrameText('[1]')).toMatchObject({ ok: false, problems: [{ pointer: '', message: expect.stringMatching(/JSON text of an object/) }] });
  });
});

describe('the LLM rail pointer (6, docs/platform-sdk.md g)', () => {
  it('is {error, details, requirements} with the token entry and an mpp entry holding only purchase_url', () => {
    const body = purchasePointerBody({ priceNano: 142_857_000n, purchaseUrl: PURCHASE_URL, reason: 'r' });
    expect(body).toEqual({
      [POINTER_BODY_MEMBERS.error]: POINTER_BODY_TEXT.error,
      [POINTER_BODY_MEMBERS.details]: POINTER_BODY_TEXT.details,
      [POINTER_BODY_MEMBERS.requirements]: {
        amount: '0.142857',
        currency: REQUIREMENTS_CURRENCY,
        schemes: [{ scheme: INBAND_SCHEMES.token }, { scheme: INBAND_SCHEMES.mpp, purchase_url: PURCHASE_URL }],
        reason: 'r',
      },
    });
    expect(checkPurchasePointerBody(body)).toEqual({ ok: true });
  });

  it('holds the token entry alone where no usage is sold', () => {
    const body = purchasePointerBody({ priceNano: 1n, purchaseUrl: null });
    expect(body.requirements.schemes).toEqual([{ scheme: INBAND_SCHEMES.token }]);
    expect(checkPurchasePointerBody(body, { sellsUsage: false })).toEqual({ ok: true });
    expect(pointers(checkPurchasePointerBody(body))).toEqual(['/requirements/schemes']);
  });

  it('the answer is 402 JSON, not stored, with no WWW-Authenticate', () => {
    const answer = purchasePointerAnswer({ priceNano: 1n, purchaseUrl: PURCHASE_URL });
    expect(answer.status).toBe(402);
    expect(answer.headers).toEqual({ [HEADERS.contentType]: MEDIA_TYPES.json, [HEADERS.cacheControl]: PAYMENT_CACHE_CONTROL });
    expect(checkPointerResponse(answer)).toEqual({ ok: true });
  });

  it('checkPointerResponse refuses a challenge riding on the pointer and a challenge in the body, whatever the status', () => {
    const body = purchasePointerBody({ priceNano: 1n, purchaseUrl: PURCHASE_URL });
    const withChallenge = checkPointerResponse({ status: 402, headers: { [HEADERS.wwwAuthenticate]: CHALLENGE }, body });
    expect(describeProblems(withChallenge)).toEqual(['(frame): a pointer carries no challenge, and WWW-Authenticate holds 1 Payment challenge(s)']);
    expect(checkPointerResponse({ status: 200, headers: new Headers(), body })).toEqual({ ok: true });
    const leaked = { ...body, requirements: { ...body.requirements, schemes: [token, mpp] } };
    expect(pointers(checkPointerResponse({ status: 402, headers: {}, body: leaked }))).toEqual(['/requirements/schemes/1/challenge']);
  });
});
