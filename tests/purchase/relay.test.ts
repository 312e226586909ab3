import { describe, expect, it } from 'vitest';
import { createChallenge, serializeChallenge } from '../../src/purchase/index.js';
import { paymentLeakOf, relayedRequestHeaders, upstreamPaymentNotRelayedAnswer } from '../../src/purchase/machine/relay/relay.js';
import { HEADERS } from '../../src/spec/headers.js';
import { PAYMENT_METHODS, PURCHASE_BODY_MEMBERS } from '../../src/spec/payments.js';
import { PURCHASE_ERRORS } from '../../src/spec/purchase-errors.js';
import { DEFAULT_PROBLEM_BASES } from '../../src/spec/problem-types.js';

const challenge = serializeChallenge(
  createChallenge({ realm: 'agent.example', method: PAYMENT_METHODS.stripe, request: { amount: '1', currency: 'usd' }, createdAt: 0 }),
);
const surface = { problemBases: DEFAULT_PROBLEM_BASES, terms: { url: 'https://platform.example/terms', version: '2026-07-31' } };

describe('relaying no payment (7.4 upstream_payment_not_relayed)', () => {
  it("finds an agent's own Payment challenge, readable or not, and its receipts", () => {
    expect(paymentLeakOf({ status: 402, headers: { [HEADERS.wwwAuthenticate]: challenge } })).toBe('payment-challenge');
    expect(paymentLeakOf({ status: 402, headers: { 'WWW-Authenticate': 'Bearer realm="x", Payment id=' } })).toBe('payment-challenge');
    expect(paymentLeakOf({ status: 200, headers: { 'Payment-Receipt': 'e30' } })).toBe('payment-receipt');
  });

  it('lets every other answer through, a Bearer challenge included', () => {
    expect(paymentLeakOf({ status: 401, headers: { [HEADERS.wwwAuthenticate]: 'Bearer realm="agent", error="invalid_token"' } })).toBeUndefined();
    expect(paymentLeakOf({ status: 402, headers: { [HEADERS.contentType]: 'application/json' } })).toBeUndefined();
    expect(paymentLeakOf({ status: 200, headers: { [HEADERS.wwwAuthenticate]: 'PaymentLike realm="x"' } })).toBeUndefined();
  });

  it("strips the buyer's Payment-Authorization, whatever its case, and keeps the rest in order", () => {
    const headers: Array<[string, string]> = [
      ['Accept', 'a'],
      ['Payment-Authorization', 'Payment x'],
      ['x-other', 'b'],
    ];
    expect(relayedRequestHeaders(headers)).toEqual([
      ['Accept', 'a'],
      ['x-other', 'b'],
    ]);
  });

  it('answers 502 with the code row and no challenge', () => {
    const answer = upstreamPaymentNotRelayedAnswer(surface, 'payment-challenge');
    expect(answer.status).toBe(PURCHASE_ERRORS.upstream_payment_not_relayed.status);
    expect(answer.body[PURCHASE_BODY_MEMBERS.errorCode]).toBe(PURCHASE_ERRORS.upstream_payment_not_relayed.code);
    expect(answer.headers[HEADERS.wwwAuthenticate]).toBeUndefined();
  });
});
