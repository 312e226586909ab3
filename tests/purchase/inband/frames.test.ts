import { Challenge } from 'mppx';
import { describe, expect, it } from 'vitest';
import {
  checkFundedFrame,
  checkPaymentRequiredFrame,
  checkPaymentSubmitFrame,
  decimalAmount,
  mppChallengeEntry,
  mppPointerEntry,
  paymentAcceptedFrame,
  paymentRequiredFrame,
  paymentRequirements,
  paymentSubmitFrame,
  responseDoneFrame,
  responseErrorFrame,
  serializeFrame,
  balanceRequiredResult,
  checkBalanceRequired,
} from '../../../src/purchase/inband.js';
import { challengeEcho, createChallenge, parsePaymentChallenge, serializeChallenge } from '../../../src/purchase/index.js';
import {
  DELEGATE_STATUSES,
  FRAME_MEMBERS,
  INBAND_FRAME_TYPES,
  INBAND_SCHEMES,
  PAYMENT_REQUIREMENTS_MEMBERS,
  PAYMENT_SUBMIT_MEMBERS,
  REQUIREMENTS_CURRENCY,
  SCHEME_ENTRY_MEMBERS,
  SOCKET_ERROR_CODES,
} from '../../../src/spec/inband.js';
import { PAYMENT_CREDENTIAL_HEADER, PAYMENT_METHODS, TERMS_OBJECT_MEMBERS } from '../../../src/spec/payments.js';

const TERMS = { url: 'https://platform.example/doc/terms-of-service', version: '2026-07-31' };
const PURCHASE_URL = 'https://platform.example/api/mpp/credits';
const challenge = createChallenge({
  realm: 'platform.example',
  method: PAYMENT_METHODS.stripe,
  request: { amount: '500', currency: 'usd', methodDetails: { networkId: 'profile_x', paymentMethodTypes: ['card'] } },
  createdAt: 1_789_732_800,
  opaque: { packId: 'mpp_5', kind: 'pack', terms: TERMS.version, nonce: 'n1' },
});

describe('payment.required (6)', () => {
  const frame = paymentRequiredFrame(
    'evt_1',
    paymentRequirements({ amount: '0.5', currency: REQUIREMENTS_CURRENCY, mpp: mppChallengeEntry(challenge, PURCHASE_URL, TERMS), reason: 'balance' }),
  );
  const wire = JSON.parse(serializeFrame(frame));

  it('puts the token entry at schemes[0] and an mpp entry with challenge, purchase_url and terms after it', () => {
    expect(wire[FRAME_MEMBERS.type]).toBe(INBAND_FRAME_TYPES.paymentRequired);
    const schemes = wire[FRAME_MEMBERS.requirements][PAYMENT_REQUIREMENTS_MEMBERS.schemes];
    expect(schemes[0]).toEqual({ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token });
    expect(schemes[1]).toEqual({
      [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.mpp,
      [SCHEME_ENTRY_MEMBERS.challenge]: serializeChallenge(challenge),
      [SCHEME_ENTRY_MEMBERS.purchaseUrl]: PURCHASE_URL,
      [SCHEME_ENTRY_MEMBERS.terms]: { [TERMS_OBJECT_MEMBERS.url]: TERMS.url, [TERMS_OBJECT_MEMBERS.version]: TERMS.version },
    });
    expect(checkPaymentRequiredFrame(wire, { mpp: 'challenge' })).toEqual({ ok: true });
  });

  it('carries the challenge value exactly as WWW-Authenticate would: it parses back to the same challenge, with our parser and with mppx', () => {
    const value: string = wire[FRAME_MEMBERS.requirements][PAYMENT_REQUIREMENTS_MEMBERS.schemes][1][SCHEME_ENTRY_MEMBERS.challenge];
    const parsed = parsePaymentChallenge(value);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.echo).toEqual(challengeEcho(challenge));
    expect(parsed.challenge.header).toBe(PAYMENT_CREDENTIAL_HEADER);
    const peer = Challenge.deserialize(value);
    expect(peer.id).toBe(challenge.id);
    expect(Challenge.serialize(peer)).toContain(`request="${challengeEcho(challenge).request}"`);
  });

  it('takes a WWW-Authenticate value as the machine wrote it, and refuses one that holds no single Payment challenge', () => {
    expect(mppChallengeEntry(serializeChallenge(challenge), PURCHASE_URL, TERMS)[SCHEME_ENTRY_MEMBERS.challenge]).toBe(serializeChallenge(challenge));
    expect(() => mppChallengeEntry('Bearer realm="x"', PURCHASE_URL, TERMS)).toThrow(/not one Payment challenge/);
    expect(() => mppChallengeEntry(challenge, '/api/mpp/credits', TERMS)).toThrow(/purchase_url .* is not an absolute http\(s\) URL/);
  });

  it('holds only the token entry where the deployment sells no usage', () => {
    const alone = paymentRequirements({ amount: '1', currency: REQUIREMENTS_CURRENCY });
    expect(alone[PAYMENT_REQUIREMENTS_MEMBERS.schemes]).toEqual([{ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.token }]);
    expect(checkPaymentRequiredFrame(paymentRequiredFrame('e', alone), { mpp: 'absent' })).toEqual({ ok: true });
  });
});

describe('the pointer entry (6)', () => {
  it('holds scheme mpp and purchase_url and nothing else', () => {
    expect(mppPointerEntry(PURCHASE_URL)).toEqual({ [SCHEME_ENTRY_MEMBERS.scheme]: INBAND_SCHEMES.mpp, [SCHEME_ENTRY_MEMBERS.purchaseUrl]: PURCHASE_URL });
    const frame = paymentRequiredFrame('e', paymentRequirements({ amount: '1', currency: REQUIREMENTS_CURRENCY, mpp: mppPointerEntry(PURCHASE_URL) }));
    expect(checkPaymentRequiredFrame(frame, { mpp: 'pointer' })).toEqual({ ok: true });
  });
});

describe('payment.submit (6)', () => {
  it('carries payment.scheme balance', () => {
    const frame = JSON.parse(serializeFrame(paymentSubmitFrame('evt_9', '0.5')));
    expect(frame).toEqual({
      [FRAME_MEMBERS.type]: INBAND_FRAME_TYPES.paymentSubmit,
      [FRAME_MEMBERS.eventId]: 'evt_9',
      [FRAME_MEMBERS.payment]: { [PAYMENT_SUBMIT_MEMBERS.scheme]: INBAND_SCHEMES.balance, [PAYMENT_SUBMIT_MEMBERS.amount]: '0.5' },
    });
    expect(checkPaymentSubmitFrame(frame)).toEqual({ ok: true });
  });
});

describe('funded frames carry the terms object (6)', () => {
  const termsObject = { [TERMS_OBJECT_MEMBERS.url]: TERMS.url, [TERMS_OBJECT_MEMBERS.version]: TERMS.version };
  it.each([
    [INBAND_FRAME_TYPES.paymentAccepted, paymentAcceptedFrame('e1', { paymentId: 'pay_1', balanceRemaining: '10', terms: TERMS })],
    [INBAND_FRAME_TYPES.responseDone, responseDoneFrame('e2', { responseId: 'resp_1', output: [], terms: TERMS })],
    [INBAND_FRAME_TYPES.responseError, responseErrorFrame('e3', { code: SOCKET_ERROR_CODES.turnFailed, message: 'x', terms: TERMS })],
  ])('%s has terms {url, version}', (type, frame) => {
    const wire = JSON.parse(serializeFrame(frame));
    expect(wire[FRAME_MEMBERS.type]).toBe(type);
    expect(wire[FRAME_MEMBERS.terms]).toEqual(termsObject);
    expect(checkFundedFrame(wire)).toEqual({ ok: true });
  });

  it('a refusal before anything was funded carries none', () => {
    expect(FRAME_MEMBERS.terms in responseErrorFrame('e', { code: 'c', message: 'm', terms: null })).toBe(false);
    expect(() => responseDoneFrame('e', { responseId: 'r', output: [], terms: { url: '', version: 'v' } })).toThrow(/url and a version/);
  });
});

describe('the MCP delegate (4.7)', () => {
  it('answers status balance_required', () => {
    expect(balanceRequiredResult()).toEqual({ status: DELEGATE_STATUSES.balanceRequired });
    expect(checkBalanceRequired(balanceRequiredResult())).toEqual({ ok: true });
  });
});

describe('decimalAmount', () => {
  it.each([
    [0n, '0'],
    [142_857_000n, '0.142857'],
    [5_000_000_000n, '5'],
    [1n, '0.000000001'],
    [12_500_000_000n, '12.5'],
  ])('%s nano is %s', (nano, text) => expect(decimalAmount(nano)).toBe(text));

  it('refuses a negative amount', () => expect(() => decimalAmount(-1n)).toThrow(RangeError));
});
