import { describe, expect, it } from 'vitest';
import {
  checkBalanceRequired,
  checkPaymentRequiredFrame,
  checkPointerResponse,
  checkPurchasePointerBody,
  mppChallengeEntry,
  mppPointerEntry,
  paymentAcceptedFrame,
  paymentRequirements,
  responseCreateFrame,
  responseDoneFrame,
  responseErrorFrame,
  type InbandCheck,
} from '../../../src/purchase/inband.js';
import { createChallenge, serializeChallenge } from '../../../src/purchase/index.js';
import { PAYMENT_METHODS } from '../../../src/spec/payments.js';

/*
 * One rule of section 6 (and 4.7) per test, on frames written out by hand as they go on the wire: what the builders
 * write, and what the judge of suite 6 says of a frame a deployment sends. The wire names are the spec's own
 * (payment.required, requirements.schemes, scheme "token" / "mpp", purchase_url, challenge, terms {url, version}).
 */

const TERMS = { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' };
const PURCHASE_URL = 'https://platform.example/api/mpp/credits';
const challenge = (): string =>
  serializeChallenge(
    createChallenge({
      realm: 'platform.example',
      method: PAYMENT_METHODS.stripe,
      request: { amount: '500', currency: 'usd' },
      createdAt: 1_789_732_800,
    }),
  );

const TOKEN = { scheme: 'token' };
const challengeEntry = (members: Record<string, unknown> = {}) => ({
  scheme: 'mpp',
  challenge: challenge(),
  purchase_url: PURCHASE_URL,
  terms: { url: TERMS.url, version: TERMS.version },
  ...members,
});
const required = (schemes: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'payment.required',
  event_id: 'evt_1',
  requirements: { amount: '0.5', currency: 'USD', schemes },
  ...extra,
});

function problemsOf(check: InbandCheck): { pointer: string; message: string }[] {
  if (check.ok) throw new Error('expected problems, the check passed');
  return check.problems.map((p) => ({ pointer: p.pointer, message: p.message }));
}

describe('what the in-band builders write (6)', () => {
  it('accepts a plain http purchase_url as an absolute URL', () => {
    expect(mppPointerEntry('http://platform.example/api/mpp/credits')).toEqual({ scheme: 'mpp', purchase_url: 'http://platform.example/api/mpp/credits' });
  });

  it('refuses a purchase_url of a scheme other than http(s)', () => {
    expect(() => mppPointerEntry('ftp://platform.example/api/mpp/credits')).toThrow(TypeError);
    expect(() => mppChallengeEntry(challenge(), 'wss://platform.example/api/mpp/credits', TERMS)).toThrow(TypeError);
  });

  it('refuses a terms object with an empty version', () => {
    expect(() => responseDoneFrame('e', { responseId: 'r', output: [], terms: { url: TERMS.url, version: '' } })).toThrow(TypeError);
  });

  it('puts the requirements reason on the wire only when one is given', () => {
    expect(paymentRequirements({ amount: '1', currency: 'USD', reason: 'balance' })).toMatchObject({ reason: 'balance' });
    expect('reason' in paymentRequirements({ amount: '1', currency: 'USD' })).toBe(false);
  });

  it('puts balance_remaining on payment.accepted only when it is known', () => {
    expect(paymentAcceptedFrame('e1', { paymentId: 'pay_1', balanceRemaining: '10', terms: TERMS })).toEqual({
      type: 'payment.accepted',
      event_id: 'e1',
      payment_id: 'pay_1',
      balance_remaining: '10',
      terms: { url: TERMS.url, version: TERMS.version },
    });
    expect('balance_remaining' in paymentAcceptedFrame('e1', { paymentId: 'pay_1', terms: TERMS })).toBe(false);
  });

  it('writes response.done with the response id, status completed and the output', () => {
    expect(responseDoneFrame('e2', { responseId: 'resp_1', output: ['hello'], terms: TERMS })).toEqual({
      type: 'response.done',
      event_id: 'e2',
      response: { id: 'resp_1', status: 'completed', output: ['hello'] },
      terms: { url: TERMS.url, version: TERMS.version },
    });
  });

  it('writes response.error with the error code and message', () => {
    expect(responseErrorFrame('e3', { code: 'turn_failed', message: 'the turn failed', terms: null })).toEqual({
      type: 'response.error',
      event_id: 'e3',
      error: { code: 'turn_failed', message: 'the turn failed' },
    });
  });

  it('writes response.create with its input only when there is one', () => {
    expect(responseCreateFrame('e4', 'hi')).toEqual({ type: 'response.create', event_id: 'e4', input: 'hi' });
    expect(Object.keys(responseCreateFrame('e5'))).toEqual(['type', 'event_id']);
  });
});

describe('the judge of payment.required (6)', () => {
  it('accepts an http purchase_url', () => {
    expect(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ purchase_url: 'http://platform.example/buy' })]), { mpp: 'challenge' })).toEqual({
      ok: true,
    });
  });

  it('refuses a purchase_url that is not an http(s) URL, naming it', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ purchase_url: 'ftp://platform.example/buy' })])))).toEqual([
      { pointer: '/requirements/schemes/1/purchase_url', message: expect.stringMatching(/absolute http\(s\) URL.*ftp:/) },
    ]);
  });

  it('refuses a purchase_url that is not a URL at all', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ purchase_url: '/api/mpp/credits' })])))).toEqual([
      { pointer: '/requirements/schemes/1/purchase_url', message: expect.stringMatching(/absolute http\(s\) URL/) },
    ]);
  });

  it('refuses an empty purchase_url once, as not a non-empty string', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ purchase_url: '' })])))).toEqual([
      { pointer: '/requirements/schemes/1/purchase_url', message: expect.stringMatching(/non-empty string/) },
    ]);
  });

  it('refuses terms that are not an object, naming the members it needs', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ terms: 'v1' })])))).toEqual([
      { pointer: '/requirements/schemes/1/terms', message: expect.stringMatching(/terms object \{url, version\}/) },
    ]);
  });

  it('refuses an empty challenge value once, and does not try to parse it', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ challenge: '' })])))).toEqual([
      { pointer: '/requirements/schemes/1/challenge', message: expect.stringMatching(/non-empty string/) },
    ]);
  });

  it('refuses a challenge value that is not one Payment challenge', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry({ challenge: 'Bearer realm="x"' })])))).toEqual([
      { pointer: '/requirements/schemes/1/challenge', message: expect.stringMatching(/one Payment challenge/) },
    ]);
  });

  it('refuses an mpp entry where the deployment sells no usage', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry()]), { mpp: 'absent' }))).toEqual([
      { pointer: '/requirements/schemes/1', message: expect.stringMatching(/no mpp entry/) },
    ]);
  });

  it('refuses an mpp entry without its challenge where a challenge is due', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, { scheme: 'mpp', purchase_url: PURCHASE_URL }]), { mpp: 'challenge' }))).toEqual([
      { pointer: '/requirements/schemes/1/challenge', message: expect.stringMatching(/must carry the Payment challenge/) },
    ]);
  });

  it('refuses a challenge where only a pointer is due', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, challengeEntry()]), { mpp: 'pointer' }))).toEqual([
      { pointer: '/requirements/schemes/1/challenge', message: expect.stringMatching(/pointer carries no challenge/) },
    ]);
  });

  it('refuses requirements that are not an object', () => {
    expect(problemsOf(checkPaymentRequiredFrame({ type: 'payment.required', event_id: 'e', requirements: [] }))).toEqual([
      { pointer: '/requirements', message: expect.stringMatching(/requirements object, is an array/) },
    ]);
  });

  it('refuses empty schemes', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([])))).toEqual([
      { pointer: '/requirements/schemes', message: expect.stringMatching(/non-empty array of scheme entries/) },
    ]);
  });

  it('refuses a scheme entry that is not an object', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, 'mpp'])))).toEqual([
      { pointer: '/requirements/schemes/1', message: expect.stringMatching(/scheme entry object, is the string "mpp"/) },
    ]);
  });

  it('refuses a scheme entry whose scheme is not a name', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN, { scheme: 7 }])))).toEqual([
      { pointer: '/requirements/schemes/1/scheme', message: expect.stringMatching(/scheme name, is number 7/) },
    ]);
  });

  it('counts an mpp entry among several schemes as present', () => {
    expect(checkPaymentRequiredFrame(required([TOKEN, { scheme: 'other' }, challengeEntry()]), { mpp: 'challenge' })).toEqual({ ok: true });
  });

  it('refuses a frame with no mpp entry where a challenge is due, saying what the entry holds', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN]), { mpp: 'challenge' }))).toEqual([
      { pointer: '/requirements/schemes', message: 'must hold an "mpp" entry (challenge, purchase_url and terms), and holds none' },
    ]);
  });

  it('refuses a frame with no mpp entry where a pointer is due, saying it holds purchase_url only', () => {
    expect(problemsOf(checkPaymentRequiredFrame(required([TOKEN]), { mpp: 'pointer' }))).toEqual([
      { pointer: '/requirements/schemes', message: 'must hold an "mpp" entry (purchase_url only), and holds none' },
    ]);
  });

  it('accepts a frame with no mpp entry when any form is allowed (the default)', () => {
    expect(checkPaymentRequiredFrame(required([TOKEN]))).toEqual({ ok: true });
  });
});

describe('the judge of the rails pointer (6)', () => {
  const body = (schemes: unknown) => ({
    error: 'Budget exhausted',
    details: 'Insufficient token balance',
    requirements: { amount: '1', currency: 'USD', schemes },
  });
  const pointer = { scheme: 'mpp', purchase_url: PURCHASE_URL };

  it('accepts a pointer body with the token entry first and an mpp entry holding only purchase_url', () => {
    expect(checkPurchasePointerBody(body([TOKEN, pointer]))).toEqual({ ok: true });
  });

  it('refuses a pointer entry that carries more than purchase_url, naming each extra member', () => {
    expect(problemsOf(checkPurchasePointerBody(body([TOKEN, { ...pointer, terms: TERMS }])))).toEqual([
      { pointer: '/requirements/schemes/1/terms', message: expect.stringMatching(/holds only purchase_url; terms must not be there/) },
    ]);
  });

  it('refuses a body that is not a JSON object', () => {
    expect(problemsOf(checkPurchasePointerBody('Budget exhausted'))).toEqual([{ pointer: '', message: expect.stringMatching(/must be a JSON object/) }]);
  });

  it('refuses a pointer body with no mpp entry where the deployment sells usage', () => {
    expect(checkPurchasePointerBody(body([TOKEN])).ok).toBe(false);
  });

  it('refuses an mpp entry where the deployment sells no usage, and accepts the token entry alone', () => {
    expect(problemsOf(checkPurchasePointerBody(body([TOKEN, pointer]), { sellsUsage: false }))).toEqual([
      { pointer: '/requirements/schemes/1', message: expect.stringMatching(/no mpp entry/) },
    ]);
    expect(checkPurchasePointerBody(body([TOKEN]), { sellsUsage: false })).toEqual({ ok: true });
  });

  it('refuses a pointer answer whose WWW-Authenticate (a Fetch Headers) holds a Payment challenge', () => {
    const headers = new Headers({ 'www-authenticate': challenge() });
    expect(problemsOf(checkPointerResponse({ headers, body: body([TOKEN, pointer]) }))).toEqual([
      { pointer: '', message: expect.stringMatching(/holds 1 Payment challenge/) },
    ]);
  });

  it('accepts a pointer answer whose Fetch Headers carry no WWW-Authenticate', () => {
    expect(checkPointerResponse({ headers: new Headers({ 'content-type': 'application/json' }), body: body([TOKEN, pointer]) })).toEqual({ ok: true });
  });

  it('reads WWW-Authenticate in a plain record in any case, and every value of a repeated field', () => {
    const bearer = 'Bearer realm="platform.example"';
    expect(problemsOf(checkPointerResponse({ headers: { 'WWW-Authenticate': challenge() }, body: body([TOKEN, pointer]) }))).toHaveLength(1);
    expect(problemsOf(checkPointerResponse({ headers: { 'www-authenticate': [bearer, challenge()] }, body: body([TOKEN, pointer]) }))).toEqual([
      { pointer: '', message: expect.stringMatching(/holds 1 Payment challenge/) },
    ]);
  });

  it('ignores other fields and a field with no value in a plain record', () => {
    expect(checkPointerResponse({ headers: { 'x-note': challenge(), 'www-authenticate': undefined }, body: body([TOKEN, pointer]) })).toEqual({ ok: true });
  });
});

describe('the judge of the MCP delegate (4.7)', () => {
  it('refuses an answer that is not a JSON object', () => {
    expect(problemsOf(checkBalanceRequired(['balance_required']))).toEqual([
      { pointer: '', message: expect.stringMatching(/must be a JSON object, is an array/) },
    ]);
  });

  it('refuses a status other than balance_required, naming the status it needs', () => {
    expect(problemsOf(checkBalanceRequired({ status: 'completed' }))).toEqual([
      { pointer: '/status', message: 'must be "balance_required", is the string "completed"' },
    ]);
  });
});
